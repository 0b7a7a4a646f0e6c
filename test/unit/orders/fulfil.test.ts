import { describe, expect, it } from 'vitest';
import { RegistryRejection } from '../../../shared/kernel/registry-port.ts';
import { checkImages } from '../../../shared/orders/steps/check-images.ts';
import { failureFromState, StepFailure } from '../../../shared/orders/steps/failure.ts';
import { asStepFailure } from '../../../shared/orders/steps/registry-call.ts';
import { executionName, parseFulfilmentMessage } from '../../../shared/orders/sweep.ts';

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

  it("maps the image requests' RO codes to the orders' own codes (shared/orders/errors.ts)", () => {
    const unknownRequest = asStepFailure(new RegistryRejection('RO51', 'No such request')) as StepFailure;
    expect([unknownRequest.name, unknownRequest.failure.code]).toEqual([
      'RegistryRejected',
      'order_not_found',
    ]);
    const otherAccount = asStepFailure(new RegistryRejection('RO01', 'Not yours')) as StepFailure;
    expect(otherAccount.failure.code).toBe('order_owner_mismatch');
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

  it('reads the failure a rejected task reported in its result slot', () => {
    expect(failureFromState({ pdf: { failure }, error: { Error: 'States.Timeout' } })).toEqual(failure);
    expect(failureFromState({ post: { failure } })).toEqual(failure);
  });

  it('names the registry’s unavailability after the retries from the error’s name alone', () => {
    const cause = JSON.stringify({
      errorType: 'RegistryUnavailable',
      errorMessage: 'Maintenance',
      trace: [],
    });
    expect(failureFromState({ error: { Error: 'RegistryUnavailable', Cause: cause } })).toMatchObject({
      code: 'registry_unavailable',
      registryCode: null,
    });
  });

  it('carries the failure as data, never inside the error message', () => {
    const thrown = new StepFailure('RegistryRejected', failure);
    expect(thrown.message).toBe(failure.message);
    expect(thrown.failure).toEqual(failure);
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

describe('checkImages', () => {
  const order = {
    id: 'ord_1',
    environment: 'live',
    accountId: 'acct',
    requestId: 'req_1',
    clientReference: null,
    imageRequests: { '0': 'IR00000001' },
  };
  const deps = (status: 'pending' | 'complete') =>
    ({
      now: () => new Date('2026-11-21T00:00:00Z'),
      orders: { get: async () => order, update: async () => undefined },
      registryFor: () => ({
        getImageRequest: async (id: string) => ({
          registryRequestId: id,
          status,
          failure: null,
          documents: [],
        }),
      }),
    }) as unknown as Parameters<typeof checkImages>[0];
  const poll = (attempt: number, waitedSeconds: number, waitSeconds: number) => ({
    state: 'waiting' as const,
    attempt,
    waitSeconds,
    waitedSeconds,
    unavailable: [],
  });

  it('doubles the wait up to ten minutes while the registry works', async () => {
    expect(await checkImages(deps('pending'), { kind: 'order', id: 'ord_1', poll: poll(0, 0, 15) })).toEqual(
      poll(1, 15, 30),
    );
    expect(
      await checkImages(deps('pending'), { kind: 'order', id: 'ord_1', poll: poll(7, 3000, 600) }),
    ).toEqual(poll(8, 3600, 600));
  });

  it('gives up after a day of waiting', async () => {
    const result = await checkImages(deps('pending'), {
      kind: 'order',
      id: 'ord_1',
      poll: poll(150, 86_000, 600),
    });
    expect(result).toEqual({
      state: 'failed',
      attempt: 151,
      waitSeconds: 0,
      waitedSeconds: 86_600,
      unavailable: [],
      failure: {
        code: 'images_unavailable',
        registryCode: null,
        message: 'The registry had not produced the images after 24 hours.',
      },
    });
  });

  it('is ready once every request is complete', async () => {
    expect(
      (await checkImages(deps('complete'), { kind: 'order', id: 'ord_1', poll: poll(0, 0, 15) })).state,
    ).toBe('ready');
  });
});
