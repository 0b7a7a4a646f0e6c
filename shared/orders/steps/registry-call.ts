/**
 * Registry calls in a step: a registry failure becomes the StepFailure the state machine's rules
 * match (failure.ts). Apart from failure.ts, so that steps that never call the registry (and the
 * handler wrapper) do not bundle the error catalogue.
 */

import { errorCodeForRegistryCode } from '../../kernel/errors/catalogue.ts';
// RO01 and RO51 map to orders' own codes.
import '../errors.ts';
import { RegistryRejection } from '../../kernel/registry-port.ts';
import { STEP_ERRORS, StepFailure } from './failure.ts';

const TRANSIENT_REGISTRY_CODES = new Set(['ZZ51', 'ZZ53']);

/** A registry failure as the state machine sees it: transient ones are retried, others end the order. */
export function asStepFailure(error: unknown): unknown {
  if (error instanceof RegistryRejection) {
    return new StepFailure(
      TRANSIENT_REGISTRY_CODES.has(error.registryCode) ? STEP_ERRORS.unavailable : STEP_ERRORS.rejected,
      {
        code: errorCodeForRegistryCode(error.registryCode) ?? 'registry_application_error',
        registryCode: error.registryCode,
        message: error.message,
      },
    );
  }
  if (error instanceof Error && error.name === 'RegistryUnreachable') {
    return new StepFailure(STEP_ERRORS.unavailable, {
      code: 'registry_unavailable',
      registryCode: null,
      message: 'The registry did not answer.',
    });
  }
  return error;
}

/** Calls the registry, turning its failures into StepFailures. */
export async function registryCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asStepFailure(error);
  }
}
