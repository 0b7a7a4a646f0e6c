/**
 * How a step fails. A registry failure becomes a StepFailure (registry-call.ts; the sandbox's
 * simulated failure is thrown as one directly): its name is what the state
 * machine's Retry and Catch rules match (lib/workflows/fulfilment.ts), and it carries the
 * order's failure (`code`, `registryCode`, `message`) as data. Lambda hands Step Functions only
 * an error's name and message (the Cause is Lambda's error document, `{errorType, errorMessage,
 * trace}`), so the failure is encoded into the message here and decoded from the Cause in one
 * place, `failureFromState`, which MarkFailed uses. Failures a step can report without failing
 * (CheckImages' poll) travel in the state as they are.
 */
import type { OrderFailure } from '../../ports/orders.ts';
import type { PollState } from './common.ts';

/** The error names of the workflow's Retry and Catch rules. */
export const STEP_ERRORS = {
  /** Never retried: the order fails with the registry's answer. */
  rejected: 'RegistryRejected',
  /** Retried for about 45 minutes (maintenance, no answer), then the order fails. */
  unavailable: 'RegistryUnavailable',
} as const;
export type StepErrorName = (typeof STEP_ERRORS)[keyof typeof STEP_ERRORS];

const STEP_ERROR_NAMES: ReadonlySet<string> = new Set(Object.values(STEP_ERRORS));

export class StepFailure extends Error {
  constructor(
    name: StepErrorName,
    readonly failure: OrderFailure,
  ) {
    super(JSON.stringify(failure));
    this.name = name;
  }
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
  poll?: PollState;
}

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

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The failure a StepFailure carried, from the Cause of an error of its name: Lambda's error
 * document (a bare message is taken as it is). Undefined for any other error.
 */
export function stepFailureOf(error: CaughtError): OrderFailure | undefined {
  if (!error.Error || !STEP_ERROR_NAMES.has(error.Error) || typeof error.Cause !== 'string') return undefined;
  const document = parsed(error.Cause) as { errorMessage?: unknown } | undefined;
  const message = typeof document?.errorMessage === 'string' ? document.errorMessage : error.Cause;
  const failure = parsed(message);
  return isFailure(failure)
    ? { code: failure.code, registryCode: failure.registryCode, message: failure.message }
    : undefined;
}

/** The failure an outcome records: the poll's, a StepFailure's, or that the order could not be fulfilled. */
export function failureFromState(state: FailedState): OrderFailure {
  if (state.poll?.failure) return state.poll.failure;
  return (state.error && stepFailureOf(state.error)) ?? FULFILMENT_FAILED;
}
