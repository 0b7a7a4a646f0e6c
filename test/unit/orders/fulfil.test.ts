import { describe, expect, it } from 'vitest';
import { asStepFailure, failureFromState, StepFailure } from '../../../shared/orders/fulfil.ts';
import { executionName, parseFulfilmentMessage } from '../../../shared/orders/sweep.ts';
import { RegistryRejection } from '../../../shared/ports/registry.ts';

describe('registry failures in the workflow', () => {
  it('retries maintenance and application errors, and ends the order on any other rejection', () => {
    const maintenance = asStepFailure(new RegistryRejection('ZZ51', 'Maintenance')) as StepFailure;
    expect([maintenance.name, maintenance.failure]).toEqual([
      'RegistryUnavailable',
      { code: 'registry_unavailable', registryCode: 'ZZ51', message: 'Maintenance' },
    ]);
    const rejected = asStepFailure(new RegistryRejection('DI52', 'Not imaged')) as StepFailure;
    expect([rejected.name, rejected.failure.code]).toEqual(['RegistryRejected', 'document_not_imaged']);
    const unknown = asStepFailure(new RegistryRejection('QQ99', 'Odd')) as StepFailure;
    expect(unknown.failure.code).toBe('registry_application_error');
  });

  it('leaves other errors alone', () => {
    const error = new Error('boom');
    expect(asStepFailure(error)).toBe(error);
  });
});

describe('failureFromState', () => {
  const failure = { code: 'images_unavailable', registryCode: 'DI58', message: 'No images' };

  it('reads a poll failure first', () => {
    expect(
      failureFromState({
        poll: { state: 'failed', attempt: 1, waitSeconds: 0, waitedSeconds: 15, unavailable: [], failure },
      }),
    ).toEqual(failure);
  });

  it('reads our failure from a Lambda-wrapped cause and from a plain one', () => {
    const thrown = new StepFailure('RegistryRejected', failure);
    const wrapped = JSON.stringify({ errorType: thrown.name, errorMessage: thrown.message, trace: [] });
    expect(failureFromState({ error: { Error: 'RegistryRejected', Cause: wrapped } })).toEqual(failure);
    expect(failureFromState({ error: { Error: 'RegistryRejected', Cause: thrown.message } })).toEqual(
      failure,
    );
  });

  it('gives a generic failure for anything else', () => {
    expect(failureFromState({ error: { Error: 'States.Timeout', Cause: 'Task timed out' } })).toEqual({
      code: 'fulfilment_failed',
      registryCode: null,
      message: 'The order could not be fulfilled. It has not been billed.',
    });
  });
});

describe('fulfilment messages', () => {
  it('names the first run after the order and restarts after their attempt', () => {
    expect(executionName({ kind: 'order', id: 'ord_1', attempt: 0 })).toBe('ord_1');
    expect(executionName({ kind: 'order', id: 'ord_1', attempt: 1763700000 })).toBe('ord_1-r1763700000');
  });

  it('refuses anything that is not a message', () => {
    expect(parseFulfilmentMessage('{"kind":"order","id":"ord_1","attempt":0}')).toEqual({
      kind: 'order',
      id: 'ord_1',
      attempt: 0,
    });
    expect(() => parseFulfilmentMessage('{"kind":"extract","id":"x","attempt":0}')).toThrow(
      /not a fulfilment message/,
    );
  });
});
