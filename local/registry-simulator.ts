/**
 * The registry simulator: a real HTTP server speaking the registry protocol
 * (docs/registry-protocol.md) in front of any `Registry`, so the HTTP adapter, the local
 * stack and the HTTP tests exercise the same wire format as production. Faults (maintenance
 * windows, application errors, latency, broken answers, slow, failed or partly unavailable image
 * requests) are switched on programmatically or through `/__simulator/*` control endpoints, and
 * every call is logged so that tests can count registry calls, billed extracts, image requests
 * and postal hand-overs.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from '../shared/app/registry.ts';
import {
  capabilityRegistrySandboxes,
  fullRegistryProtocol,
  type ProtocolOperation as RegistryOperation,
} from '../shared/composition/registry/capability-protocol.ts';
import {
  type ArgumentKind,
  type ArgumentKinds,
  isObject,
  MAINTENANCE_RETRY_AFTER_SECONDS,
  REGISTRY_CODE_PATTERN,
  rejectionStatus,
  type WireArgs,
} from '../shared/composition/registry/protocol.ts';
import type { RegistryPurchaseOutcome } from '../shared/extracts/registry-port.ts';
import { type RegistryCaller, RegistryRejection } from '../shared/kernel/registry-port.ts';
import type { RegistryImageRequestStatus } from '../shared/orders/registry-port.ts';
import { readBody } from './http-body.ts';

/** How a fault breaks the answer after the registry did the work (an extract is still billed). */
export const brokenResponses = ['non-json', 'malformed', 'disconnect'] as const;
export type BrokenResponse = (typeof brokenResponses)[number];

/** The registry code a failed image request reports unless a rule names another. */
export const DEFAULT_IMAGE_FAILURE = {
  registryCode: 'DI58',
  message: 'The registry could not retrieve the images.',
} as const;

/** What an image rule does to the image requests it applies to. */
export interface ImageFaultInput {
  /** Status checks answered `pending` before the request completes (or fails). */
  pendingChecks?: number;
  /** The request ends `failed` with this code (default DI58) and message. */
  failure?: { code?: string; message?: string };
  /** Document numbers answered `available: false` once the request is complete. */
  unavailable?: string[];
}

export interface ImageFault {
  pendingChecks: number;
  failure: { registryCode: string; message: string } | null;
  unavailable: string[];
}

export interface FaultRuleInput {
  /** A registry code to answer with, for example ZZ51 (maintenance window) or ZZ53. */
  code?: string;
  /** Operations the rule applies to; all when absent. */
  operations?: RegistryOperation[];
  /** Only calls made for this account (`caller.accountId`); every account when absent. */
  accountId?: string;
  /** How many calls the rule applies to; until cleared when absent. */
  times?: number;
  /** Delay before answering (or before the code is answered). */
  latencyMs?: number;
  message?: string;
  details?: Record<string, unknown>;
  /** Only for ZZ51: the `Retry-After` header (default 300). */
  retryAfterSeconds?: number;
  response?: BrokenResponse;
  /**
   * An image rule: applies to the next image requests created (`images.request` calls that are
   * not a repeat of a client key), then to their status checks and downloads. It takes only
   * `accountId`, `times` and `operations` (`["images.request"]`, the default) beside it.
   */
  image?: ImageFaultInput;
}

export interface FaultRule {
  id: string;
  code: string | null;
  operations: RegistryOperation[] | null;
  accountId: string | null;
  times: number | null;
  /** Calls left before the rule is spent; null when unlimited. */
  remaining: number | null;
  /** Calls the rule has applied to so far. */
  applied: number;
  latencyMs: number;
  message: string | null;
  details: Record<string, unknown> | null;
  retryAfterSeconds: number | null;
  response: BrokenResponse | null;
  image: ImageFault | null;
}

export class FaultRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultRuleError';
  }
}

const nonNegativeInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** What the matching rules do to one call. */
interface AppliedFaults {
  latencyMs: number;
  rejection: {
    code: string;
    message: string;
    details: Record<string, unknown> | null;
    retryAfter: number;
  } | null;
  response: BrokenResponse | null;
  ruleIds: string[];
}

/**
 * Every rule that matches a call applies to it (and uses up one of its `times`): latencies add
 * up, the first rule with a code decides the rejection, the first with a `response` breaks it.
 */
export class FaultController {
  private rules: FaultRule[] = [];

  add(input: FaultRuleInput): FaultRule {
    const rule = validateRule(input);
    this.rules.push(rule);
    return { ...rule };
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length < before;
  }

  /** Removes every rule; returns how many there were. */
  clear(): number {
    const count = this.rules.length;
    this.rules = [];
    return count;
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** Applies the matching rules (image rules aside) to one call of `operation` made for `accountId`. */
  take(operation: RegistryOperation, accountId: string | null = null): AppliedFaults {
    const applied: AppliedFaults = { latencyMs: 0, rejection: null, response: null, ruleIds: [] };
    for (const rule of this.rules) {
      if (rule.remaining === 0 || rule.image) continue;
      if (rule.operations && !rule.operations.includes(operation)) continue;
      if (rule.accountId !== null && rule.accountId !== accountId) continue;
      if (rule.remaining !== null) rule.remaining -= 1;
      rule.applied += 1;
      applied.ruleIds.push(rule.id);
      applied.latencyMs += rule.latencyMs;
      if (rule.code && !applied.rejection)
        applied.rejection = {
          code: rule.code,
          message: rule.message ?? defaultFaultMessage(rule.code),
          details: rule.details,
          retryAfter: rule.retryAfterSeconds ?? MAINTENANCE_RETRY_AFTER_SECONDS,
        };
      if (rule.response && !applied.response) applied.response = rule.response;
    }
    return applied;
  }

  /** The first image rule that matches a new image request made for `accountId`, used up by one. */
  takeImage(accountId: string): { ruleId: string; fault: ImageFault } | null {
    const rule = this.rules.find(
      (candidate) =>
        candidate.image &&
        candidate.remaining !== 0 &&
        (candidate.accountId === null || candidate.accountId === accountId),
    );
    if (!rule?.image) return null;
    if (rule.remaining !== null) rule.remaining -= 1;
    rule.applied += 1;
    return { ruleId: rule.id, fault: structuredClone(rule.image) };
  }
}

const defaultFaultMessage = (code: string): string =>
  code === 'ZZ51'
    ? 'Registry database unavailable: maintenance window'
    : code === 'ZZ53'
      ? 'Registry application error'
      : `Simulated rejection ${code}`;

function validateRule(input: unknown): FaultRule {
  if (!isObject(input)) throw new FaultRuleError('a fault rule is a JSON object');
  const known = new Set([
    'code',
    'operations',
    'accountId',
    'times',
    'latencyMs',
    'message',
    'details',
    'retryAfterSeconds',
    'response',
    'image',
  ]);
  const unknown = Object.keys(input).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new FaultRuleError(`unknown fault rule field(s): ${unknown.join(', ')}`);
  const {
    code,
    operations,
    accountId,
    times,
    latencyMs,
    message,
    details,
    retryAfterSeconds,
    response,
    image,
  } = input;
  if (code !== undefined && (typeof code !== 'string' || !REGISTRY_CODE_PATTERN.test(code)))
    throw new FaultRuleError('code must be a registry code: two capital letters and two digits, like ZZ51');
  if (
    operations !== undefined &&
    (!Array.isArray(operations) ||
      operations.length === 0 ||
      !operations.every((op) => fullRegistryProtocol.operations.includes(op as string)))
  )
    throw new FaultRuleError(
      `operations must be a non-empty list of: ${fullRegistryProtocol.operations.join(', ')}`,
    );
  if (accountId !== undefined && (typeof accountId !== 'string' || accountId === ''))
    throw new FaultRuleError('accountId must be a non-empty string');
  if (times !== undefined && (!nonNegativeInt(times) || times === 0))
    throw new FaultRuleError('times must be a positive integer');
  if (latencyMs !== undefined && (!nonNegativeInt(latencyMs) || latencyMs > 120_000))
    throw new FaultRuleError('latencyMs must be an integer from 0 to 120000');
  if (message !== undefined && typeof message !== 'string')
    throw new FaultRuleError('message must be a string');
  if (details !== undefined && !isObject(details)) throw new FaultRuleError('details must be an object');
  if (retryAfterSeconds !== undefined && !nonNegativeInt(retryAfterSeconds))
    throw new FaultRuleError('retryAfterSeconds must be a non-negative integer');
  if (response !== undefined && !(brokenResponses as readonly unknown[]).includes(response))
    throw new FaultRuleError(`response must be one of: ${brokenResponses.join(', ')}`);
  const imageFault = image === undefined ? null : validateImageFault(image);
  if (imageFault) {
    const others = ['code', 'latencyMs', 'message', 'details', 'retryAfterSeconds', 'response'].filter(
      (key) => key in input,
    );
    if (others.length > 0) throw new FaultRuleError(`an image rule cannot also have: ${others.join(', ')}`);
    if (operations !== undefined && (operations.length !== 1 || operations[0] !== 'images.request'))
      throw new FaultRuleError('an image rule applies to images.request only');
  }
  if (code === undefined && latencyMs === undefined && response === undefined && image === undefined)
    throw new FaultRuleError('a fault rule needs a code, a latencyMs, a response or an image');
  return {
    id: `fault_${randomUUID().slice(0, 8)}`,
    code: (code as string | undefined) ?? null,
    operations: imageFault ? ['images.request'] : ((operations as RegistryOperation[] | undefined) ?? null),
    accountId: (accountId as string | undefined) ?? null,
    times: (times as number | undefined) ?? null,
    remaining: (times as number | undefined) ?? null,
    applied: 0,
    latencyMs: (latencyMs as number | undefined) ?? 0,
    message: (message as string | undefined) ?? null,
    details: (details as Record<string, unknown> | undefined) ?? null,
    retryAfterSeconds: (retryAfterSeconds as number | undefined) ?? null,
    response: (response as BrokenResponse | undefined) ?? null,
    image: imageFault,
  };
}

function validateImageFault(input: unknown): ImageFault {
  if (!isObject(input)) throw new FaultRuleError('image must be an object');
  const unknown = Object.keys(input).filter(
    (key) => !['pendingChecks', 'failure', 'unavailable'].includes(key),
  );
  if (unknown.length > 0) throw new FaultRuleError(`unknown image field(s): ${unknown.join(', ')}`);
  const { pendingChecks, failure, unavailable } = input;
  if (pendingChecks !== undefined && (!nonNegativeInt(pendingChecks) || pendingChecks > 1000))
    throw new FaultRuleError('image.pendingChecks must be an integer from 0 to 1000');
  if (failure !== undefined) {
    if (!isObject(failure) || Object.keys(failure).some((key) => key !== 'code' && key !== 'message'))
      throw new FaultRuleError('image.failure must be an object with an optional code and message');
    if (
      failure.code !== undefined &&
      (typeof failure.code !== 'string' || !REGISTRY_CODE_PATTERN.test(failure.code))
    )
      throw new FaultRuleError('image.failure.code must be a registry code, like DI58');
    if (failure.message !== undefined && typeof failure.message !== 'string')
      throw new FaultRuleError('image.failure.message must be a string');
  }
  if (
    unavailable !== undefined &&
    (!Array.isArray(unavailable) ||
      !unavailable.every((number) => typeof number === 'string' && number !== ''))
  )
    throw new FaultRuleError('image.unavailable must be a list of document numbers');
  if (pendingChecks === undefined && failure === undefined && unavailable === undefined)
    throw new FaultRuleError('image needs pendingChecks, failure or unavailable');
  return {
    pendingChecks: (pendingChecks as number | undefined) ?? 0,
    failure: isObject(failure)
      ? {
          registryCode: (failure.code as string | undefined) ?? DEFAULT_IMAGE_FAILURE.registryCode,
          message: (failure.message as string | undefined) ?? DEFAULT_IMAGE_FAILURE.message,
        }
      : null,
    unavailable: [...((unavailable as string[] | undefined) ?? [])],
  };
}

/**
 * The outcome of a call: `pending` while it runs, `ok`, a registry code, or a protocol failure
 * (`unauthorized`, `bad_request`).
 */
export type CallOutcome = 'pending' | 'ok' | 'unauthorized' | 'bad_request' | (string & {});

export interface SimulatorCall {
  seq: number;
  operation: RegistryOperation;
  /** The arguments without the caller. */
  args: Record<string, unknown>;
  accountId: string | null;
  requestId: string | null;
  clientReference: string | null;
  /** The client key of a keyed call (every billable operation, and `post.request`). */
  clientKey: string | null;
  /** When the call arrived. */
  at: string;
  outcome: CallOutcome;
  /** HTTP status answered; null while pending or when the connection was dropped. */
  status: number | null;
  /** What a successful `images.request` or `post.request` answered: the request or dispatch id. */
  reference: string | null;
  /** A successful keyed call whose key had been used before: a repeat, nothing new was done. */
  repeated: boolean;
  /**
   * A successful billable call that did something new (a repeated image request is not): the
   * registry charged for it, whether or not the answer arrived.
   */
  billed: boolean;
  /** Fault rules applied to the call. */
  faults: string[];
  durationMs: number | null;
}

export interface CallLogSnapshot {
  /** Calls received per operation, whatever their outcome. */
  counts: Partial<Record<RegistryOperation, number>>;
  /** Billed calls (see `SimulatorCall.billed`). */
  billed: number;
  calls: SimulatorCall[];
}

export class CallLog {
  private entries: SimulatorCall[] = [];
  private seq = 0;

  /** Internal: records a call as it arrives. */
  start(
    call: Omit<
      SimulatorCall,
      'seq' | 'outcome' | 'status' | 'reference' | 'repeated' | 'billed' | 'faults' | 'durationMs'
    >,
  ): SimulatorCall {
    const entry: SimulatorCall = {
      ...call,
      seq: ++this.seq,
      outcome: 'pending',
      status: null,
      reference: null,
      repeated: false,
      billed: false,
      faults: [],
      durationMs: null,
    };
    this.entries.push(entry);
    return entry;
  }

  list(operation?: RegistryOperation): SimulatorCall[] {
    return this.entries
      .filter((call) => !operation || call.operation === operation)
      .map((call) => ({ ...call }));
  }

  /** Calls received, of one operation or all. */
  count(operation?: RegistryOperation): number {
    return operation
      ? this.entries.filter((call) => call.operation === operation).length
      : this.entries.length;
  }

  counts(): Partial<Record<RegistryOperation, number>> {
    const counts: Partial<Record<RegistryOperation, number>> = {};
    for (const call of this.entries) counts[call.operation] = (counts[call.operation] ?? 0) + 1;
    return counts;
  }

  billed(): number {
    return this.entries.filter((call) => call.billed).length;
  }

  reset(): void {
    this.entries = [];
  }

  snapshot(): CallLogSnapshot {
    return { counts: this.counts(), billed: this.billed(), calls: this.list() };
  }
}

export interface RegistrySimulatorOptions {
  registry: Registry;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** The bearer credential to require; when absent any non-empty bearer credential is accepted. */
  credential?: string;
  /**
   * Changes to the register as they happen (`POST /__simulator/changes`: a status, name or type
   * change, a lodged document, a disqualified or licensed person; shared/weekly-summaries/adapters/sandbox-changes.ts).
   */
  changes?: { apply(change: never): unknown };
}

export interface RegistrySimulator {
  /** For example `http://127.0.0.1:43123`: the adapter's `baseUrl`. */
  url: string;
  stop(): Promise<void>;
  faults: FaultController;
  calls: CallLog;
}

const MAX_BODY_BYTES = 1024 * 1024;
const CONTROL_PREFIX = '/__simulator';

class BadRequest extends Error {}

const text = (body: Record<string, unknown>, name: string): string => {
  const value = body[name];
  if (typeof value !== 'string') throw new BadRequest(`${name} must be a string`);
  return value;
};

const object = (body: Record<string, unknown>, name: string): Record<string, unknown> => {
  const value = body[name];
  if (!isObject(value)) throw new BadRequest(`${name} must be an object`);
  return value;
};

const list = (body: Record<string, unknown>, name: string, kind: 'strings' | 'objects'): unknown[] => {
  const value = body[name];
  const item = kind === 'strings' ? (v: unknown) => typeof v === 'string' : isObject;
  if (!Array.isArray(value) || !value.every(item))
    throw new BadRequest(`${name} must be a list of ${kind === 'strings' ? 'strings' : 'objects'}`);
  return value;
};

const readArgument = (body: Record<string, unknown>, name: string, kind: ArgumentKind): unknown =>
  kind === 'string' ? text(body, name) : kind === 'object' ? object(body, name) : list(body, name, kind);

/** The arguments of a call, each checked against its JSON type (the registry checks the values). */
const readArguments = (kinds: ArgumentKinds, body: Record<string, unknown>): WireArgs<ArgumentKinds> =>
  Object.fromEntries(
    Object.entries(kinds).map(([name, kind]) => [name, readArgument(body, name, kind)]),
  ) as WireArgs<ArgumentKinds>;

/** How the simulator answers one operation: its wire arguments, and the registry call they make. */
export interface SimulatorOperation {
  args: ArgumentKinds;
  invoke(registry: Registry, body: Record<string, unknown>, caller: RegistryCaller): Promise<unknown>;
}

/**
 * Every operation's entry, derived from the protocol table: the arguments are checked against
 * their JSON type only (their values are the registry's to reject), passed to the table's port
 * method, and its result sent as the table says. `purchase.outcome` is answered from the
 * simulator's own record of keyed calls (see KeyedCalls), never by the registry behind it.
 */
export const simulatorOperations = Object.fromEntries(
  fullRegistryProtocol.operations.map((name): [RegistryOperation, SimulatorOperation] => {
    const spec = fullRegistryProtocol.spec(name);
    // A capability's own operations are answered by its sandbox, the registry port's by `registry`.
    const own = capabilityRegistrySandboxes[name];
    return [
      name,
      {
        args: spec.args,
        invoke: async (portRegistry, body, caller) => {
          const registry = own ?? portRegistry;
          const method = (registry as unknown as Record<string, unknown>)[spec.method] as (
            ...args: unknown[]
          ) => Promise<unknown>;
          const result = await method.apply(registry, spec.toPort(readArguments(spec.args, body), caller));
          return spec.wire ? spec.wire.encode(result as never) : result;
        },
      },
    ];
  }),
) as Record<RegistryOperation, SimulatorOperation>;

/**
 * What the registry remembers of keyed calls, per account and client key: the first call does the
 * work (and is billed); a repeat with the same operation and arguments gets the first call's
 * result, waiting for it while it runs, and is not billed; the same key with other arguments is
 * refused. A call that ends in a rejection did nothing, so its key is forgotten.
 */
class KeyedCalls {
  private readonly entries = new Map<
    string,
    {
      operation: RegistryOperation;
      args: string;
      result: Promise<unknown>;
      settled: boolean;
      value?: unknown;
    }
  >();

  claim(
    accountId: string,
    clientKey: string,
    operation: RegistryOperation,
    args: Record<string, unknown>,
  ):
    | { kind: 'first'; settle(result: unknown): void; forget(): void }
    | { kind: 'repeat'; result: Promise<unknown> }
    | { kind: 'conflict'; operation: RegistryOperation } {
    const id = `${accountId}\u0000${clientKey}`;
    const json = JSON.stringify(args);
    const known = this.entries.get(id);
    if (known) {
      return known.operation === operation && known.args === json
        ? { kind: 'repeat', result: known.result }
        : { kind: 'conflict', operation: known.operation };
    }
    let resolve: (value: unknown) => void = () => undefined;
    let reject: (error: unknown) => void = () => undefined;
    const result = new Promise<unknown>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    result.catch(() => undefined);
    const entry: {
      operation: RegistryOperation;
      args: string;
      result: Promise<unknown>;
      settled: boolean;
      value?: unknown;
    } = { operation, args: json, result, settled: false };
    this.entries.set(id, entry);
    return {
      kind: 'first',
      settle: (value) => {
        entry.settled = true;
        entry.value = value;
        resolve(value);
      },
      forget: () => {
        this.entries.delete(id);
        reject(new Error('the first call with this key did nothing'));
      },
    };
  }

  /** `purchase.outcome`: what became of the key's billable call. */
  outcome(accountId: string, clientKey: string): RegistryPurchaseOutcome {
    const known = this.entries.get(`${accountId}\u0000${clientKey}`);
    if (!known || !fullRegistryProtocol.billable.has(known.operation)) return { state: 'none' };
    if (!known.settled) return { state: 'pending' };
    return { state: 'completed', operation: known.operation, result: known.value };
  }
}

/** An image request an image rule applies to, and how many status checks were answered pending. */
interface FaultedImageRequest {
  accountId: string;
  fault: ImageFault;
  pendingAnswered: number;
}

/** Pending until the rule's pending checks are answered, then failed or complete. */
const imagePhase = (state: FaultedImageRequest): 'pending' | 'failed' | 'complete' =>
  state.pendingAnswered < state.fault.pendingChecks ? 'pending' : state.fault.failure ? 'failed' : 'complete';

function callerOf(body: Record<string, unknown>): RegistryCaller {
  const caller = body.caller;
  if (!isObject(caller) || typeof caller.accountId !== 'string' || typeof caller.requestId !== 'string')
    throw new BadRequest('caller must be an object with accountId and requestId strings');
  const { clientReference } = caller;
  if (clientReference !== undefined && clientReference !== null && typeof clientReference !== 'string')
    throw new BadRequest('caller.clientReference must be a string or null');
  return {
    accountId: caller.accountId,
    requestId: caller.requestId,
    clientReference: clientReference ?? null,
  };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const protocolError = (res: ServerResponse, status: number, code: string, message: string, headers = {}) =>
  send(res, status, { error: { code, message } }, headers);

function sendRejection(
  res: ServerResponse,
  code: string,
  message: string,
  details: unknown,
  retryAfter: number,
) {
  const headers: Record<string, string> = code === 'ZZ51' ? { 'Retry-After': String(retryAfter) } : {};
  send(
    res,
    rejectionStatus(code),
    { error: { code, message, ...(isObject(details) ? { details } : {}) } },
    headers,
  );
}

export async function startRegistrySimulator(options: RegistrySimulatorOptions): Promise<RegistrySimulator> {
  const faults = new FaultController();
  const calls = new CallLog();
  let stopped = false;
  // Latency faults wait here; stop() cuts every wait short.
  const waiting = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((done) => {
      if (ms <= 0 || stopped) return done();
      const finish = () => {
        clearTimeout(timer);
        waiting.delete(finish);
        done();
      };
      const timer = setTimeout(finish, ms);
      waiting.add(finish);
    });

  const authorised = (req: IncomingMessage): boolean => {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (!match) return false;
    return options.credential === undefined || match[1] === options.credential;
  };

  // Keyed calls (a repeated key gets the first outcome again), and the image requests that image
  // rules apply to.
  const keyedCalls = new KeyedCalls();
  const faultedImages = new Map<string, FaultedImageRequest>();

  /** Asks the registry, with the image rules applied to status checks and downloads. */
  async function perform(
    operation: RegistryOperation,
    body: Record<string, unknown>,
    caller: RegistryCaller,
  ): Promise<unknown> {
    if (operation === 'purchase.outcome')
      return keyedCalls.outcome(caller.accountId, text(body, 'clientKey'));
    const id =
      operation === 'images.status' || operation === 'images.get' ? text(body, 'registryRequestId') : '';
    const state = faultedImages.get(id);
    const faulted = state && state.accountId === caller.accountId ? state : undefined;
    if (operation === 'images.get' && faulted) {
      const phase = imagePhase(faulted);
      if (phase === 'pending')
        throw new RegistryRejection('DI59', `Image request ${id} is not complete yet.`, {
          registryRequestId: id,
        });
      const number = text(body, 'documentNumber');
      const failure =
        phase === 'failed'
          ? faulted.fault.failure
          : faulted.fault.unavailable.includes(number)
            ? DEFAULT_IMAGE_FAILURE
            : null;
      if (failure)
        throw new RegistryRejection(failure.registryCode, failure.message, { documentNumber: number });
    }
    const result = await (simulatorOperations[operation] as SimulatorOperation).invoke(
      options.registry,
      body,
      caller,
    );
    if (operation !== 'images.status' || !faulted) return result;
    const status = result as RegistryImageRequestStatus;
    switch (imagePhase(faulted)) {
      case 'pending':
        faulted.pendingAnswered += 1;
        return { ...status, status: 'pending', failure: null, documents: [] };
      case 'failed':
        return { ...status, status: 'failed', failure: faulted.fault.failure, documents: [] };
      default:
        return {
          ...status,
          documents: status.documents.map((document) =>
            faulted.fault.unavailable.includes(document.documentNumber)
              ? { ...document, available: false }
              : document,
          ),
        };
    }
  }

  async function serveOperation(req: IncomingMessage, res: ServerResponse, operation: RegistryOperation) {
    const started = Date.now();
    let raw: string;
    try {
      raw = (await readBody(req, MAX_BODY_BYTES, () => new BadRequest('body larger than 1 MiB'))) ?? '';
    } catch (error) {
      protocolError(res, 400, 'bad_request', (error as Error).message);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const fields = isObject(body) ? body : {};
    const caller = isObject(fields.caller) ? fields.caller : {};
    const call = calls.start({
      operation,
      args: Object.fromEntries(
        Object.keys((simulatorOperations[operation] as SimulatorOperation).args).map((name) => [
          name,
          fields[name],
        ]),
      ),
      accountId: typeof caller.accountId === 'string' ? caller.accountId : null,
      requestId: typeof caller.requestId === 'string' ? caller.requestId : null,
      clientReference: typeof caller.clientReference === 'string' ? caller.clientReference : null,
      clientKey: fullRegistryProtocol.clientKeyOf(operation, fields),
      at: new Date(started).toISOString(),
    });
    const finish = (outcome: CallOutcome, status: number | null) => {
      call.outcome = outcome;
      call.status = status;
      call.durationMs = Date.now() - started;
    };

    if (!authorised(req)) {
      protocolError(res, 401, 'unauthorized', 'credential not accepted', { 'WWW-Authenticate': 'Bearer' });
      finish('unauthorized', 401);
      return;
    }
    let registryCaller: RegistryCaller;
    try {
      if (!isObject(body)) throw new BadRequest('the body must be a JSON object');
      registryCaller = callerOf(body);
      readArguments((simulatorOperations[operation] as SimulatorOperation).args, body);
    } catch (error) {
      protocolError(res, 400, 'bad_request', (error as Error).message);
      finish('bad_request', 400);
      return;
    }

    // The registry takes the key as the call arrives: a repeat sent while it runs waits for it.
    const claim =
      call.clientKey !== null && fullRegistryProtocol.keyed.has(operation)
        ? keyedCalls.claim(registryCaller.accountId, call.clientKey, operation, call.args)
        : undefined;
    if (claim?.kind === 'conflict') {
      protocolError(
        res,
        409,
        'client_key_reused',
        `client key ${call.clientKey} was used for another ${claim.operation} call`,
      );
      finish('client_key_reused', 409);
      return;
    }
    const applied = faults.take(operation, registryCaller.accountId);
    call.faults = applied.ruleIds;
    await pause(applied.latencyMs);
    if (stopped) {
      if (claim?.kind === 'first') claim.forget();
      res.destroy();
      finish('pending', null);
      return;
    }
    if (applied.rejection) {
      if (claim?.kind === 'first') claim.forget();
      const { code, message, details, retryAfter } = applied.rejection;
      sendRejection(res, code, message, details, retryAfter);
      finish(code, rejectionStatus(code));
      return;
    }

    let result: unknown;
    try {
      if (claim?.kind === 'repeat') {
        // The first call did nothing after all (it was refused): this one is asked afresh.
        result = await claim.result.catch(() => perform(operation, body, registryCaller));
        call.repeated = true;
      } else {
        result = await perform(operation, body, registryCaller);
        claim?.settle(result);
      }
    } catch (error) {
      if (claim?.kind === 'first') claim.forget();
      if (error instanceof RegistryRejection) {
        sendRejection(res, error.registryCode, error.message, error.details, MAINTENANCE_RETRY_AFTER_SECONDS);
        finish(error.registryCode, rejectionStatus(error.registryCode));
      } else {
        // What a real registry does with a bug of its own: an application error.
        sendRejection(res, 'ZZ53', `simulator: the registry threw ${String(error)}`, undefined, 0);
        finish('ZZ53', 500);
      }
      return;
    }
    if (operation === 'images.request' || operation === 'post.request') {
      const reference = String(
        (result as Record<string, unknown>)[
          operation === 'images.request' ? 'registryRequestId' : 'dispatchId'
        ],
      );
      call.reference = reference;
      if (operation === 'images.request' && !call.repeated) {
        const taken = faults.takeImage(registryCaller.accountId);
        if (taken) {
          faultedImages.set(reference, {
            accountId: registryCaller.accountId,
            fault: taken.fault,
            pendingAnswered: 0,
          });
          call.faults = [...call.faults, taken.ruleId];
        }
      }
    }
    call.billed = fullRegistryProtocol.billable.has(operation) && !call.repeated;
    switch (applied.response) {
      case 'disconnect':
        res.destroy();
        finish('ok', null);
        return;
      case 'non-json':
        if (!res.destroyed)
          res
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end('<html><body>502 Bad Gateway</body></html>');
        finish('ok', 200);
        return;
      case 'malformed':
        send(res, 200, { outcome: 'done', data: result });
        finish('ok', 200);
        return;
      default:
        send(res, 200, { result });
        finish('ok', 200);
    }
  }

  async function serveControl(req: IncomingMessage, res: ServerResponse, path: string) {
    const method = req.method ?? 'GET';
    if (path === '/faults') {
      if (method === 'GET') return send(res, 200, { faults: faults.list() });
      if (method === 'DELETE') return send(res, 200, { cleared: faults.clear() });
      if (method === 'POST') {
        try {
          const raw =
            (await readBody(req, MAX_BODY_BYTES, () => new BadRequest('body larger than 1 MiB'))) ?? '';
          let input: unknown;
          try {
            input = JSON.parse(raw);
          } catch {
            throw new FaultRuleError('the body must be JSON');
          }
          return send(res, 201, { fault: faults.add(input as FaultRuleInput) });
        } catch (error) {
          return protocolError(res, 400, 'bad_request', (error as Error).message);
        }
      }
    }
    const one = /^\/faults\/([^/]+)$/.exec(path);
    if (one && method === 'DELETE') {
      if (faults.remove(decodeURIComponent(one[1] as string))) return send(res, 200, { removed: one[1] });
      return protocolError(res, 404, 'not_found', `no fault ${one[1]}`);
    }
    if (path === '/changes' && method === 'POST' && options.changes) {
      try {
        const raw =
          (await readBody(req, MAX_BODY_BYTES, () => new BadRequest('body larger than 1 MiB'))) ?? '';
        return send(res, 201, options.changes.apply(JSON.parse(raw) as never) as Record<string, unknown>);
      } catch (error) {
        return protocolError(res, 400, 'bad_request', (error as Error).message);
      }
    }
    if (path === '/calls') {
      if (method === 'GET') return send(res, 200, calls.snapshot());
      if (method === 'DELETE') {
        calls.reset();
        return send(res, 200, { reset: true });
      }
    }
    return protocolError(res, 404, 'not_found', `no control endpoint ${method} ${CONTROL_PREFIX}${path}`);
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://simulator').pathname;
    const handle = async () => {
      if (path.startsWith(`${CONTROL_PREFIX}/`))
        return serveControl(req, res, path.slice(CONTROL_PREFIX.length));
      const match = /^\/v1\/([^/]+)$/.exec(path);
      const operation = match?.[1];
      if (!operation || !fullRegistryProtocol.isOperation(operation))
        return protocolError(res, 404, 'unknown_operation', `no operation at ${path}`);
      if (req.method !== 'POST')
        return protocolError(res, 405, 'method_not_allowed', 'operations are POSTed', { Allow: 'POST' });
      return serveOperation(req, res, operation);
    };
    handle().catch((error: unknown) => {
      protocolError(res, 500, 'simulator_error', String(error));
    });
  });

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}`,
    faults,
    calls,
    async stop() {
      stopped = true;
      for (const cut of [...waiting]) cut();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

export interface SimulatorControl {
  addFault(rule: FaultRuleInput): Promise<FaultRule>;
  removeFault(id: string): Promise<void>;
  clearFaults(): Promise<void>;
  faults(): Promise<FaultRule[]>;
  calls(): Promise<CallLogSnapshot>;
  resetCalls(): Promise<void>;
  /** Changes the register now (shared/weekly-summaries/adapters/sandbox-changes.ts: `RegisterChange`). */
  change(change: Record<string, unknown>): Promise<{ applied: true; weekStarting: string }>;
}

/** A client of the control endpoints, for tests that reach the simulator only by URL. */
export function simulatorControl(url: string): SimulatorControl {
  const base = `${url.replace(/\/+$/, '')}${CONTROL_PREFIX}`;
  const request = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const answer = await response.text();
    if (!response.ok)
      throw new Error(`simulator ${method} ${CONTROL_PREFIX}${path}: HTTP ${response.status} ${answer}`);
    return JSON.parse(answer);
  };
  return {
    addFault: async (rule) => ((await request('POST', '/faults', rule)) as { fault: FaultRule }).fault,
    removeFault: async (id) => {
      await request('DELETE', `/faults/${encodeURIComponent(id)}`);
    },
    clearFaults: async () => {
      await request('DELETE', '/faults');
    },
    faults: async () => ((await request('GET', '/faults')) as { faults: FaultRule[] }).faults,
    calls: async () => (await request('GET', '/calls')) as CallLogSnapshot,
    resetCalls: async () => {
      await request('DELETE', '/calls');
    },
    change: async (change) =>
      (await request('POST', '/changes', change)) as { applied: true; weekStarting: string },
  };
}
