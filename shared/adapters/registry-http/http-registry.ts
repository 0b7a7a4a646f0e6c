/**
 * The registry over HTTP: live keys call the national register (or, locally and in tests, the
 * registry simulator in local/registry-simulator.ts) through this adapter.
 *
 * Protocol (docs/registry-protocol.md has the full text):
 *
 * - `POST {baseUrl}/v1/{operation}`, `Content-Type: application/json`,
 *   `Authorization: Bearer <credential>`. Operations and their arguments:
 *   `company.get` {number}, `company.getByAbn` {abn}, `company.search` {name, scope},
 *   `company.extract` {number, type, clientKey} (billable), `charge.get` {chargeNumber},
 *   `person.search` {query}, `person.extract` {registryIdentifier, options, clientKey}
 *   (billable), `charges.plan` {number}, `documents.get` {numbers}, `images.request`
 *   {clientKey, documents} (billable), `images.status` {registryRequestId}, `images.get`
 *   {registryRequestId, documentNumber}, `post.request` {delivery} (keyed), `search.offline`
 *   {name, scope, clientKey} (billable), `purchase.outcome` {clientKey}.
 *   Every body also carries `caller` {accountId, requestId, clientReference}.
 * - Success: HTTP 200 `{"result": …}` with the raw type of the port; `images.get` answers
 *   `{"result": {"pdf": "<base64>"}}`.
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
import { remainingMs } from '../../http/time-budget.ts';
import { logger, tracer } from '../../observability.ts';
import {
  type CompanyExtractType,
  type CompanySearchScope,
  type PeopleSearchQuery,
  type PersonExtractOptions,
  type Registry,
  type RegistryCaller,
  type RegistryCharge,
  type RegistryChargesExtractPlan,
  type RegistryCompany,
  type RegistryCompanyExtract,
  type RegistryCompanyMatch,
  type RegistryImageableDocument,
  type RegistryImageRequestItem,
  type RegistryImageRequestStatus,
  type RegistryPersonExtract,
  type RegistryPersonMatch,
  type RegistryPostalDelivery,
  type RegistryPurchaseOutcome,
  RegistryRejection,
} from '../../ports/registry.ts';

export const registryOperations = [
  'company.get',
  'company.getByAbn',
  'company.search',
  'company.extract',
  'charge.get',
  'person.search',
  'person.extract',
  'charges.plan',
  'documents.get',
  'images.request',
  'images.status',
  'images.get',
  'post.request',
  'search.offline',
  'purchase.outcome',
] as const;
export type RegistryOperation = (typeof registryOperations)[number];

/** Operations the registry bills: a lost answer to one of them is not retried unless it is keyed. */
export const billableOperations: ReadonlySet<RegistryOperation> = new Set([
  'company.extract',
  'person.extract',
  'images.request',
  'search.offline',
]);

/**
 * Operations that carry our client key (every billable one, and the postal hand-over): the
 * registry answers a repeated key with the first call's outcome and does nothing more, so a lost
 * answer is retried like a read, and `purchase.outcome` tells what became of a key.
 */
export const keyedOperations: ReadonlySet<RegistryOperation> = new Set([
  ...billableOperations,
  'post.request',
]);

/** Below this, an attempt could not get an answer back in time: it is not started. */
export const MIN_ATTEMPT_MS = 250;

/** Operations given the long timeout: the billable ones, and image downloads (a PDF of many pages). */
const slowOperations: ReadonlySet<RegistryOperation> = new Set([...billableOperations, 'images.get']);

/** The start of a PDF (`%PDF-`) in base64. */
const PDF_BASE64_PREFIX = 'JVBERi0';

/** Registry codes are two capital letters and two digits (CE03, ON52, ZZ51…). */
export const REGISTRY_CODE_PATTERN = /^[A-Z]{2}\d{2}$/;

/** The HTTP status the protocol gives a registry rejection. */
export function rejectionStatus(code: string): number {
  if (code === 'ZZ51') return 503;
  if (code === 'ZZ53') return 500;
  return 422;
}

/** Seconds in the `Retry-After` header of a ZZ51 answer (the registry's maintenance window). */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

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
  readonly operation: RegistryOperation;
  readonly reason: RegistryUnreachableReason;
  /** Attempts made, retries included. */
  readonly attempts: number;
  /**
   * A billable call that may have reached the registry: whether it charged is not known (its
   * client key lets the registry say later, and a repeat of the key charges nothing more).
   */
  readonly outcomeUnknown: boolean;
  constructor(
    operation: RegistryOperation,
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Shallow checks of each operation's result: enough to catch an answer of the wrong kind. */
const resultChecks: Record<RegistryOperation, (value: unknown) => boolean> = {
  'company.get': (v) => isObject(v) && typeof v.number === 'string',
  'company.getByAbn': (v) => isObject(v) && typeof v.number === 'string',
  'company.search': (v) => isObject(v) && typeof v.found === 'number' && Array.isArray(v.matches),
  'company.extract': (v) => isObject(v) && typeof v.type === 'string' && isObject(v.company),
  'charge.get': (v) => isObject(v) && typeof v.chargeNumber === 'string',
  'person.search': (v) => isObject(v) && typeof v.found === 'number' && Array.isArray(v.matches),
  'person.extract': (v) =>
    isObject(v) && typeof v.type === 'string' && isObject(v.person) && Array.isArray(v.roles),
  'charges.plan': (v) =>
    isObject(v) && isObject(v.company) && typeof v.scope === 'string' && Array.isArray(v.documents),
  'documents.get': (v) => Array.isArray(v),
  'images.request': (v) => isObject(v) && typeof v.registryRequestId === 'string',
  'images.status': (v) =>
    isObject(v) &&
    typeof v.registryRequestId === 'string' &&
    typeof v.status === 'string' &&
    Array.isArray(v.documents),
  'images.get': (v) => isObject(v) && typeof v.pdf === 'string' && v.pdf.startsWith(PDF_BASE64_PREFIX),
  'post.request': (v) => isObject(v) && typeof v.dispatchId === 'string',
  'search.offline': (v) => isObject(v) && Array.isArray(v.matches),
  'purchase.outcome': (v) =>
    isObject(v) &&
    (v.state === 'pending' ||
      v.state === 'none' ||
      (v.state === 'completed' &&
        typeof v.operation === 'string' &&
        (registryOperations as readonly string[]).includes(v.operation) &&
        resultChecks[v.operation as RegistryOperation](v.result))),
};

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

export class HttpRegistry implements Registry {
  private readonly baseUrl: string;
  private readonly credential: () => Promise<string>;
  private readonly timeouts: { lookupMs: number; purchaseMs: number };
  private readonly retryDelayMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: HttpRegistryOptions) {
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

  getCompany(number: string, caller: RegistryCaller): Promise<RegistryCompany> {
    return this.call('company.get', { number }, caller) as Promise<RegistryCompany>;
  }

  getCompanyByAbn(abn: string, caller: RegistryCaller): Promise<RegistryCompany> {
    return this.call('company.getByAbn', { abn }, caller) as Promise<RegistryCompany>;
  }

  searchCompanies(
    query: { name: string; scope: CompanySearchScope },
    caller: RegistryCaller,
  ): Promise<{ found: number; matches: RegistryCompanyMatch[] }> {
    return this.call('company.search', { name: query.name, scope: query.scope }, caller) as Promise<{
      found: number;
      matches: RegistryCompanyMatch[];
    }>;
  }

  purchaseCompanyExtract(
    number: string,
    type: CompanyExtractType,
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<RegistryCompanyExtract> {
    return this.call(
      'company.extract',
      { number, type, clientKey },
      caller,
    ) as Promise<RegistryCompanyExtract>;
  }

  findPurchase(clientKey: string, caller: RegistryCaller): Promise<RegistryPurchaseOutcome> {
    return this.call('purchase.outcome', { clientKey }, caller) as Promise<RegistryPurchaseOutcome>;
  }

  getCharge(chargeNumber: string, caller: RegistryCaller): Promise<RegistryCharge> {
    return this.call('charge.get', { chargeNumber }, caller) as Promise<RegistryCharge>;
  }

  searchPeople(
    query: PeopleSearchQuery,
    caller: RegistryCaller,
  ): Promise<{ found: number; matches: RegistryPersonMatch[] }> {
    const { familyName, givenName, birthDateFrom, birthDateTo } = query;
    return this.call(
      'person.search',
      {
        query: {
          familyName,
          givenName,
          birthDateFrom: birthDateFrom ?? null,
          birthDateTo: birthDateTo ?? null,
        },
      },
      caller,
    ) as Promise<{ found: number; matches: RegistryPersonMatch[] }>;
  }

  purchasePersonExtract(
    registryIdentifier: string,
    options: PersonExtractOptions,
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<RegistryPersonExtract> {
    const { history, includeShareholdings } = options;
    return this.call(
      'person.extract',
      { registryIdentifier, options: { history, includeShareholdings }, clientKey },
      caller,
    ) as Promise<RegistryPersonExtract>;
  }

  planChargesExtract(number: string, caller: RegistryCaller): Promise<RegistryChargesExtractPlan> {
    return this.call('charges.plan', { number }, caller) as Promise<RegistryChargesExtractPlan>;
  }

  getDocuments(numbers: readonly string[], caller: RegistryCaller): Promise<RegistryImageableDocument[]> {
    return this.call('documents.get', { numbers: [...numbers] }, caller) as Promise<
      RegistryImageableDocument[]
    >;
  }

  requestImages(
    request: { clientKey: string; documents: readonly RegistryImageRequestItem[] },
    caller: RegistryCaller,
  ): Promise<{ registryRequestId: string }> {
    const documents = request.documents.map(({ documentNumber, pages }) => ({
      documentNumber,
      pages: pages ? { from: pages.from, to: pages.to } : null,
    }));
    return this.call('images.request', { clientKey: request.clientKey, documents }, caller) as Promise<{
      registryRequestId: string;
    }>;
  }

  getImageRequest(registryRequestId: string, caller: RegistryCaller): Promise<RegistryImageRequestStatus> {
    return this.call('images.status', { registryRequestId }, caller) as Promise<RegistryImageRequestStatus>;
  }

  async getImages(
    registryRequestId: string,
    documentNumber: string,
    caller: RegistryCaller,
  ): Promise<Uint8Array> {
    const { pdf } = (await this.call('images.get', { registryRequestId, documentNumber }, caller)) as {
      pdf: string;
    };
    return new Uint8Array(Buffer.from(pdf, 'base64'));
  }

  requestPostalDelivery(
    delivery: RegistryPostalDelivery,
    caller: RegistryCaller,
  ): Promise<{ dispatchId: string }> {
    const { clientKey, registryRequestIds, recipient, address, postcode, contactName, contactPhone } =
      delivery;
    return this.call(
      'post.request',
      {
        delivery: {
          clientKey,
          registryRequestIds: [...registryRequestIds],
          recipient,
          address,
          postcode,
          contactName,
          contactPhone,
        },
      },
      caller,
    ) as Promise<{ dispatchId: string }>;
  }

  searchCompaniesOffline(
    query: { name: string; scope: CompanySearchScope },
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<{ matches: RegistryCompanyMatch[] }> {
    return this.call(
      'search.offline',
      { name: query.name, scope: query.scope, clientKey },
      caller,
    ) as Promise<{
      matches: RegistryCompanyMatch[];
    }>;
  }

  private async call(
    operation: RegistryOperation,
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
    return this.traced(operation, async () => {
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
      const outcomeUnknown = billableOperations.has(operation) && maybeSent;
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
    });
  }

  /** Every billable operation is keyed, so any lost or garbled answer may be asked again. */
  private shouldRetry(attempt: Attempt): boolean {
    if (attempt.kind === 'rejection') return attempt.error.registryCode === 'ZZ53';
    if (attempt.kind === 'result') return false;
    return attempt.reason !== 'unauthorized' && attempt.reason !== 'no_time';
  }

  private async attempt(operation: RegistryOperation, body: string): Promise<Attempt> {
    const fullMs = slowOperations.has(operation) ? this.timeouts.purchaseMs : this.timeouts.lookupMs;
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
    return interpret(operation, status, retryAfter, text);
  }

  private async traced<T>(operation: RegistryOperation, run: () => Promise<T>): Promise<T> {
    if (!tracer.isTracingEnabled()) return run();
    const parent = tracer.getSegment();
    const segment = parent?.addNewSubsegment(`## registry ${operation}`);
    if (!parent || !segment) return run();
    tracer.setSegment(segment);
    segment.addAnnotation('registryOperation', operation);
    try {
      return await run();
    } catch (error) {
      if (error instanceof RegistryRejection) segment.addAnnotation('registryCode', error.registryCode);
      else segment.addError(error as Error);
      throw error;
    } finally {
      segment.close();
      tracer.setSegment(parent);
    }
  }
}

function interpret(
  operation: RegistryOperation,
  status: number,
  retryAfter: string | null,
  text: string,
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
  if (!resultChecks[operation](parsed.result))
    return bad(`HTTP 200 with a result that is not a ${operation} result`);
  return { kind: 'result', value: parsed.result };
}

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
