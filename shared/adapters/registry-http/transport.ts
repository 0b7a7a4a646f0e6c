/**
 * How the HTTP adapter asks the registry: one `call` per operation of a protocol table
 * (protocol.ts: the rows the capabilities declare), with the policy every operation shares.
 *
 * - `POST {baseUrl}/v1/{operation}`, `Content-Type: application/json`,
 *   `Authorization: Bearer <credential>`; the body holds the operation's arguments and `caller`
 *   {accountId, requestId, clientReference}.
 * - Success: HTTP 200 `{"result": …}`, checked by the table's `isResult` (and decoded by its
 *   `wire`, if any).
 * - Rejection: `{"error": {"code": "CE03", "message": "…", "details": {…}}}` where the code is a
 *   registry code (two letters, two digits). HTTP 422 in general, 503 with `Retry-After` for
 *   ZZ51 (maintenance window), 500 for ZZ53 (application error). Any status is accepted as long
 *   as the body carries a registry code.
 * - Protocol failures carry a lowercase code that is not a registry code: 401 `unauthorized`
 *   (credential not accepted), 400 `bad_request`, 404 `unknown_operation`.
 *
 * What the caller sees: a registry rejection is a `RegistryRejection`; everything else (timeout,
 * connection failure, credential refused, an answer that is not the protocol) is a
 * `RegistryUnreachable`. One retry at most per call, after ZZ53, a timeout, a dropped connection
 * or an answer that is not the protocol. That is safe for billable operations too, because every
 * one of them carries our client key: the registry answers a repeat with the first call's outcome
 * and charges nothing more. A call never outlives the request's deadline (`time-budget.ts`):
 * each attempt's timeout is cut to the time left, and no retry starts without time for it.
 */

import { type ClassifyFailure, timeDependencyCall } from '../../kernel/dependency-calls.ts';
import { remainingMs } from '../../kernel/http/time-budget.ts';
import { putMetric, type RegistryCallOutcome, SERVICE_METRICS } from '../../kernel/metric-line.ts';
import { logger } from '../../kernel/observability.ts';
import { type RegistryCaller, RegistryRejection } from '../../kernel/registry-port.ts';
import {
  isObject,
  type OperationArgs,
  type OperationResult,
  type RegistryOperationRows,
} from '../../kernel/registry-protocol.ts';
import { REGISTRY_CODE_PATTERN, type RegistryProtocol } from './protocol.ts';

/** Below this, an attempt could not get an answer back in time: it is not started. */
export const MIN_ATTEMPT_MS = 250;

export type RegistryUnreachableReason =
  /** No answer within the operation's timeout: for an extract, whether it was charged is unknown. */
  | 'timeout'
  /** The connection was refused (nothing sent) or dropped (outcome unknown). */
  | 'connection'
  /** The registry refused our credential (HTTP 401): a configuration problem on our side. */
  | 'unauthorized'
  /** An answer that is not the protocol: not JSON, unexpected status, malformed result. */
  | 'bad_response'
  /** The request's deadline left no time to ask (nothing was sent). */
  | 'no_time';

/** The registry could not be asked, or its answer could not be understood. */
export class RegistryUnreachable extends Error {
  readonly operation: string;
  readonly reason: RegistryUnreachableReason;
  /** Attempts made, retries included. */
  readonly attempts: number;
  /**
   * A billable call that may have reached the registry: whether it charged is not known (its
   * client key lets the registry say later, and a repeat of the key charges nothing more).
   */
  readonly outcomeUnknown: boolean;
  constructor(
    operation: string,
    reason: RegistryUnreachableReason,
    message: string,
    options: { cause?: unknown; attempts?: number; outcomeUnknown?: boolean } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'RegistryUnreachable';
    this.operation = operation;
    this.reason = reason;
    this.attempts = options.attempts ?? 1;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

export interface HttpRegistryOptions {
  /** For example `https://registry.example.com`; operations are posted to `{baseUrl}/v1/{operation}`. */
  baseUrl: string;
  /** Called before every attempt, so a rotated secret is picked up by the provider's cache. */
  credential: () => Promise<string>;
  timeouts?: { lookupMs?: number; purchaseMs?: number };
  /** Wait before the single retry (default 200 ms). */
  retryDelayMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_TIMEOUTS = { lookupMs: 5_000, purchaseMs: 25_000 } as const;
export const DEFAULT_RETRY_DELAY_MS = 200;

type Attempt =
  | { kind: 'result'; value: unknown }
  | { kind: 'rejection'; error: RegistryRejection }
  | {
      kind: 'unreachable';
      reason: RegistryUnreachableReason;
      message: string;
      cause?: unknown;
      /** The request certainly never reached the registry. */
      nothingSent: boolean;
    };

/**
 * Asks the registry one operation of the table `T`: its wire arguments in, the port's result out.
 * Every adapter part calls the registry through this.
 */
export type RegistryCall<T extends RegistryOperationRows> = <O extends keyof T & string>(
  operation: O,
  args: OperationArgs<T, O>,
  caller: RegistryCaller,
) => Promise<OperationResult<T, O>>;

const errorCode = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Classifies what `fetch` (or reading its body) threw. */
function failureOf(error: unknown, timeoutMs: number): Extract<Attempt, { kind: 'unreachable' }> {
  const name = (error as { name?: unknown } | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return {
      kind: 'unreachable',
      reason: 'timeout',
      message: `no answer within ${timeoutMs} ms`,
      cause: error,
      nothingSent: false,
    };
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const code = errorCode(cause) ?? errorCode(error);
  return {
    kind: 'unreachable',
    reason: 'connection',
    message: `connection failed${code ? ` (${code})` : ''}: ${(cause as Error | undefined)?.message ?? (error as Error).message}`,
    cause: error,
    nothingSent: code === 'ECONNREFUSED',
  };
}

export class RegistryTransport<T extends RegistryOperationRows> {
  private readonly baseUrl: string;
  private readonly credential: () => Promise<string>;
  private readonly timeouts: { lookupMs: number; purchaseMs: number };
  private readonly retryDelayMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    options: HttpRegistryOptions,
    private readonly protocol: RegistryProtocol<T>,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.credential = options.credential;
    this.timeouts = {
      lookupMs: options.timeouts?.lookupMs ?? DEFAULT_TIMEOUTS.lookupMs,
      purchaseMs: options.timeouts?.purchaseMs ?? DEFAULT_TIMEOUTS.purchaseMs,
    };
    this.retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
  }

  readonly call: RegistryCall<T> = async (operation, args, caller) => {
    const value = await this.send(operation, args as Record<string, unknown>, caller);
    const { wire } = this.protocol.spec(operation);
    return (wire ? wire.decode(value) : value) as never;
  };

  /** The call typed by the rows of one capability, each an operation of this transport's table. */
  callFor<C extends RegistryOperationRows>(rows: C): RegistryCall<C> {
    const missing = Object.keys(rows).filter((name) => !this.protocol.isOperation(name));
    if (missing.length > 0) throw new Error(`the registry protocol has no ${missing.join(', ')}`);
    return this.call as unknown as RegistryCall<C>;
  }

  /**
   * One call, counted once (whatever its retries) as `RegistryCalls` by operation and outcome,
   * and recorded with its latency as a call to the `Registry` dependency.
   */
  private async send(
    operation: keyof T & string,
    args: Record<string, unknown>,
    caller: RegistryCaller,
  ): Promise<unknown> {
    let outcome: RegistryCallOutcome = 'failed';
    try {
      const value = await timeDependencyCall(
        'Registry',
        operation,
        () => this.sendOnce(operation, args, caller),
        classifyFailure,
      );
      outcome = 'ok';
      return value;
    } catch (error) {
      if (error instanceof RegistryRejection) outcome = outcomeOfRejection(error.registryCode);
      throw error;
    } finally {
      putMetric(SERVICE_METRICS.registryCalls, { operation, outcome });
    }
  }

  private async sendOnce(
    operation: keyof T & string,
    args: Record<string, unknown>,
    caller: RegistryCaller,
  ): Promise<unknown> {
    const body = JSON.stringify({
      ...args,
      caller: {
        accountId: caller.accountId,
        requestId: caller.requestId,
        clientReference: caller.clientReference ?? null,
      },
    });
    let attempt = await this.attempt(operation, body);
    let attempts = 1;
    // Whether any attempt may have reached the registry (and so, for a billable one, charged).
    let maybeSent = attempt.kind !== 'unreachable' || !attempt.nothingSent;
    if (this.shouldRetry(attempt) && timeLeft() > this.retryDelayMs + MIN_ATTEMPT_MS) {
      logger.warn('registry call retried', {
        operation,
        requestId: caller.requestId,
        after: whatFailed(attempt),
      });
      await this.sleep(this.retryDelayMs);
      attempt = await this.attempt(operation, body);
      attempts = 2;
      maybeSent ||= attempt.kind !== 'unreachable' || !attempt.nothingSent;
    }
    if (attempt.kind === 'result') return attempt.value;
    if (attempt.kind === 'rejection') throw attempt.error;
    const message = `registry ${operation}: ${attempt.message}${attempts > 1 ? ' (after one retry)' : ''}`;
    const outcomeUnknown = this.protocol.billable.has(operation) && maybeSent;
    logger.warn('registry unreachable', {
      operation,
      requestId: caller.requestId,
      reason: attempt.reason,
      outcomeUnknown,
      detail: message,
    });
    throw new RegistryUnreachable(operation, attempt.reason, message, {
      cause: attempt.cause,
      attempts,
      outcomeUnknown,
    });
  }

  /** Every billable operation is keyed, so any lost or garbled answer may be asked again. */
  private shouldRetry(attempt: Attempt): boolean {
    if (attempt.kind === 'rejection') return attempt.error.registryCode === 'ZZ53';
    if (attempt.kind === 'result') return false;
    return attempt.reason !== 'unauthorized' && attempt.reason !== 'no_time';
  }

  private async attempt(operation: keyof T & string, body: string): Promise<Attempt> {
    const fullMs =
      this.protocol.spec(operation).timeout === 'long' ? this.timeouts.purchaseMs : this.timeouts.lookupMs;
    const left = timeLeft();
    // The floor is for what the deadline leaves, not for a short configured timeout.
    const timeoutMs = Math.min(fullMs, left);
    if (left < MIN_ATTEMPT_MS) {
      return {
        kind: 'unreachable',
        reason: 'no_time',
        message: 'no time left before the request deadline',
        nothingSent: true,
      };
    }
    const credential = await this.credential();
    let status: number;
    let retryAfter: string | null;
    let text: string;
    try {
      // The timeout covers reading the body as well as the headers.
      const response = await this.fetchImpl(`${this.baseUrl}/v1/${operation}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          Authorization: `Bearer ${credential}`,
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (error) {
      return failureOf(error, timeoutMs);
    }
    return interpret(operation, status, retryAfter, text, this.protocol.isResultOf);
  }
}

function interpret(
  operation: string,
  status: number,
  retryAfter: string | null,
  text: string,
  isResultOf: (operation: string, result: unknown) => boolean,
): Attempt {
  const bad = (message: string, cause?: unknown): Attempt => ({
    kind: 'unreachable',
    reason: 'bad_response',
    message,
    cause,
    nothingSent: false,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    if (status === 401) return unauthorized(text);
    return bad(`HTTP ${status} with a body that is not JSON`, cause);
  }
  const error = isObject(parsed) ? parsed.error : undefined;
  if (isObject(error) && typeof error.code === 'string' && REGISTRY_CODE_PATTERN.test(error.code)) {
    const details = isObject(error.details) ? { ...error.details } : undefined;
    const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
    const withRetry =
      error.code === 'ZZ51' && seconds !== undefined ? { ...details, retryAfterSeconds: seconds } : details;
    const message =
      typeof error.message === 'string' ? error.message : `registry rejected with ${error.code}`;
    return { kind: 'rejection', error: new RegistryRejection(error.code, message, withRetry) };
  }
  if (status === 401)
    return unauthorized(isObject(error) && typeof error.message === 'string' ? error.message : '');
  if (status !== 200) {
    const what = isObject(error) ? `${String(error.code)}: ${String(error.message)}` : 'no error object';
    return bad(`HTTP ${status} (${what})`);
  }
  if (!isObject(parsed) || !('result' in parsed)) return bad('HTTP 200 without a result');
  if (!isResultOf(operation, parsed.result))
    return bad(`HTTP 200 with a result that is not a ${operation} result`);
  return { kind: 'result', value: parsed.result };
}

/** ZZ51 is an announced maintenance window, ZZ53 the registry failing; any other code is an answer. */
const outcomeOfRejection = (registryCode: string): RegistryCallOutcome =>
  registryCode === 'ZZ51' ? 'maintenance' : registryCode === 'ZZ53' ? 'failed' : 'rejected';

/** A registry code other than ZZ51 and ZZ53 is an answer (not found, insufficient data…), not a failure. */
const classifyFailure: ClassifyFailure = (error) => {
  if (error instanceof RegistryRejection) {
    const outcome = outcomeOfRejection(error.registryCode) === 'rejected' ? 'rejected' : 'failed';
    return { outcome, errorName: error.name, errorCode: error.registryCode };
  }
  if (error instanceof RegistryUnreachable) {
    return { outcome: 'failed', errorName: error.name, errorCode: error.reason };
  }
  return { outcome: 'failed', errorName: (error as Error | undefined)?.name ?? 'Error' };
};

/** Time left before the request's deadline; unbounded outside a request (the workflow's steps). */
const timeLeft = () => remainingMs() ?? Number.POSITIVE_INFINITY;

const whatFailed = (attempt: Attempt): string =>
  attempt.kind === 'rejection'
    ? attempt.error.registryCode
    : attempt.kind === 'unreachable'
      ? attempt.reason
      : 'nothing';

const unauthorized = (detail: string): Attempt => ({
  kind: 'unreachable',
  reason: 'unauthorized',
  message: `the registry refused our credential (HTTP 401)${detail ? `: ${detail.slice(0, 200)}` : ''}`,
  nothingSent: false,
});
