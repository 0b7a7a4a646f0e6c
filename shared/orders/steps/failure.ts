/**
 * How a step fails. A registry failure becomes a StepFailure (registry-call.ts; the sandbox's
 * simulated failure is made one directly):
 * - `RegistryRejected`, the registry's answer for this order: the task wrapper
 *   (shared/orders/instrumented.ts) returns it as data, `{ failure }`, into the task's result slot
 *   of the execution's state, and the state machine's Choice after the task sends the execution
 *   to MarkFailed (shared/orders/cdk/workflow.ts);
 * - `RegistryUnavailable` (maintenance, an application error, no answer): thrown, so the state
 *   machine retries it for about 45 minutes before its Catch sends the execution to MarkFailed,
 *   where the error's name alone says what failed.
 * No failure travels inside an error message, and nothing parses one.
 */
import type { OrderFailure } from '../store-port.ts';

/** The error names a step's failures carry (the second is what Retry and Catch rules match). */
export const STEP_ERRORS = {
  /** Reported as the task's result: the order fails with the registry's answer. */
  rejected: 'RegistryRejected',
  /** Thrown: retried for about 45 minutes, then the order fails. */
  unavailable: 'RegistryUnavailable',
} as const;
export type StepErrorName = (typeof STEP_ERRORS)[keyof typeof STEP_ERRORS];

export class StepFailure extends Error {
  constructor(
    name: StepErrorName,
    readonly failure: OrderFailure,
  ) {
    super(failure.message);
    this.name = name;
  }
}

/** What a task reports instead of its result when the registry rejected the order. */
export interface Rejected {
  failure: OrderFailure;
}

export const SIMULATED_FAILURE: OrderFailure = {
  code: 'images_unavailable',
  registryCode: 'DI58',
  message: 'Sandbox: X-Sandbox-Simulate order_failed made this order fail as a registry failure would.',
};

/** What a Catch put at `$.error`: Step Functions' Error (the error's name) and Cause. */
export interface CaughtError {
  Error?: string;
  Cause?: string;
}

/** The execution's state when an outcome was chosen: where a failure is read from. */
export interface FailedState {
  error?: CaughtError;
  /** Task results by slot (`poll`, `pdf`, …); a rejected task's slot holds `{ failure }`. */
  [slot: string]: unknown;
}

const REGISTRY_UNAVAILABLE: OrderFailure = {
  code: 'registry_unavailable',
  registryCode: null,
  message:
    'The registry stayed unavailable while the order was retried for about 45 minutes, so it could not be fulfilled. It has not been billed.',
};

const FULFILMENT_FAILED: OrderFailure = {
  code: 'fulfilment_failed',
  registryCode: null,
  message: 'The order could not be fulfilled. It has not been billed.',
};

const isFailure = (value: unknown): value is OrderFailure => {
  const failure = value as Partial<OrderFailure> | null;
  return (
    typeof failure?.code === 'string' &&
    typeof failure.message === 'string' &&
    (failure.registryCode === null || typeof failure.registryCode === 'string')
  );
};

/**
 * The failure an outcome records: the one a task reported in its slot (CheckImages' poll too),
 * then what a caught error's name says, then that the order could not be fulfilled.
 */
export function failureFromState(state: FailedState): OrderFailure {
  for (const [slot, value] of Object.entries(state)) {
    if (slot === 'error') continue;
    const failure = (value as Partial<Rejected> | null)?.failure;
    if (isFailure(failure))
      return { code: failure.code, registryCode: failure.registryCode, message: failure.message };
  }
  return state.error?.Error === STEP_ERRORS.unavailable ? REGISTRY_UNAVAILABLE : FULFILMENT_FAILED;
}
