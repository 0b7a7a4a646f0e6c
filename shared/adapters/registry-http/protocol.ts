/**
 * The registry protocol, one row per operation: the one table that the HTTP adapter (which sends
 * the operations) and the registry simulator (which answers them in front of any `Registry`) both
 * read, and that docs/registry-protocol.md is generated from (`npm run docs:registry`).
 *
 * A row says which port method the operation serves and in which capability, whether the registry
 * bills it and where its client key is, which timeout it gets, its arguments on the wire, how the
 * simulator turns them back into the port call, how its result is checked, and (only when it
 * differs from the port's) how the result travels. test/unit/registry-protocol.test.ts checks
 * that every method of every capability has exactly one row.
 */
import type { Registry, RegistryCapability, RegistryMethod, RegistryParts } from '../../app/registry.ts';
import type { CompanyExtractType, CompanySearchScope } from '../../companies/registry-port.ts';
import type { RegistryCaller } from '../../kernel/registry-port.ts';
import type { RegistryImageRequestItem, RegistryPostalDelivery } from '../../orders/registry-port.ts';
import type { PeopleSearchQuery, PersonExtractOptions } from '../../people/registry-port.ts';
import type { BusinessNameQuery } from '../../records/registry-port.ts';
import type { RegisterExtractType } from '../../registers/registry-port.ts';
import type { WeeklySummaryType } from '../../weekly-summaries/registry-port.ts';

/**
 * What an argument must be on the wire: a string, a JSON object, a list of strings or a list of
 * objects. Values are not checked beyond their JSON type: that is the registry's job.
 */
export type ArgumentKind = 'string' | 'object' | 'strings' | 'objects';

interface ArgumentValue {
  string: string;
  object: Record<string, unknown>;
  strings: string[];
  objects: Record<string, unknown>[];
}

export type ArgumentKinds = Readonly<Record<string, ArgumentKind>>;

/** The arguments of a call, as sent (caller aside). */
export type WireArgs<A extends ArgumentKinds> = { [K in keyof A]: ArgumentValue[A[K]] };

/** The capability a port method belongs to. */
export type CapabilityOf<M extends RegistryMethod> = {
  [C in RegistryCapability]: M extends keyof RegistryParts[C] ? C : never;
}[RegistryCapability];

/** What a port method resolves to. */
export type PortResult<M extends RegistryMethod> = Awaited<ReturnType<Registry[M]>>;

export interface OperationSpec<M extends RegistryMethod, A extends ArgumentKinds> {
  capability: CapabilityOf<M>;
  /** The port method the operation serves. */
  method: M;
  /** The registry bills it, once per client key. */
  billable: boolean;
  /** Where a keyed operation carries our client key; absent when the operation takes none. */
  clientKey?: (args: WireArgs<A>) => unknown;
  /** `long`: the purchase timeout (billable calls and image downloads); `lookup` otherwise. */
  timeout: 'lookup' | 'long';
  /** The arguments on the wire, beside `caller`. */
  args: A;
  /** The port call that answers the operation (the simulator): its arguments from the wire's. */
  toPort(args: WireArgs<A>, caller: RegistryCaller): Parameters<Registry[M]>;
  /** A shallow check of the result: enough to catch an answer of the wrong kind. */
  isResult(value: unknown): boolean;
  /** How the result travels, when not as the port's own value. */
  wire?: { encode(result: PortResult<M>): unknown; decode(value: unknown): PortResult<M> };
  /** Its row in docs/registry-protocol.md. */
  doc: { args: string; result: string };
}

const operation = <M extends RegistryMethod, const A extends ArgumentKinds>(spec: OperationSpec<M, A>) =>
  spec;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The start of a PDF (`%PDF-`) in base64. */
const PDF_BASE64_PREFIX = 'JVBERi0';

const isCompany = (v: unknown) => isObject(v) && typeof v.number === 'string';
const isSearchResult = (v: unknown) => isObject(v) && typeof v.found === 'number' && Array.isArray(v.matches);
const ownClientKey = (args: { clientKey: string }) => args.clientKey;

export const registryProtocol = {
  'company.get': operation({
    capability: 'companies',
    method: 'getCompany',
    billable: false,
    timeout: 'lookup',
    args: { number: 'string' },
    toPort: (a, caller) => [a.number, caller],
    isResult: isCompany,
    doc: { args: '`number` (nine digits)', result: '`RegistryCompany`' },
  }),
  'company.getByAbn': operation({
    capability: 'companies',
    method: 'getCompanyByAbn',
    billable: false,
    timeout: 'lookup',
    args: { abn: 'string' },
    toPort: (a, caller) => [a.abn, caller],
    isResult: isCompany,
    doc: { args: '`abn`', result: '`RegistryCompany`' },
  }),
  'company.documents': operation({
    capability: 'companies',
    method: 'listCompanyDocuments',
    billable: false,
    timeout: 'lookup',
    args: { number: 'string' },
    toPort: (a, caller) => [a.number, caller],
    isResult: (v) => Array.isArray(v),
    doc: { args: '`number` (nine digits)', result: '`RegistryDocument[]`, newest first' },
  }),
  'company.search': operation({
    capability: 'companies',
    method: 'searchCompanies',
    billable: false,
    timeout: 'lookup',
    args: { name: 'string', scope: 'string' },
    toPort: (a, caller) => [{ name: a.name, scope: a.scope as CompanySearchScope }, caller],
    isResult: isSearchResult,
    doc: { args: '`name`, `scope` (`current` or `all`)', result: '`{found, matches}`' },
  }),
  'company.extract': operation({
    capability: 'companies',
    method: 'purchaseCompanyExtract',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { number: 'string', type: 'string', clientKey: 'string' },
    toPort: (a, caller) => [a.number, a.type as CompanyExtractType, caller, a.clientKey],
    isResult: (v) => isObject(v) && typeof v.type === 'string' && isObject(v.company),
    doc: {
      args: '`number`, `type` (`current`, `historical`, `relational`), `clientKey`',
      result: '`RegistryCompanyExtract`',
    },
  }),
  'charge.get': operation({
    capability: 'companies',
    method: 'getCharge',
    billable: false,
    timeout: 'lookup',
    args: { chargeNumber: 'string' },
    toPort: (a, caller) => [a.chargeNumber, caller],
    isResult: (v) => isObject(v) && typeof v.chargeNumber === 'string',
    doc: { args: '`chargeNumber`', result: '`RegistryCharge`' },
  }),
  'person.search': operation({
    capability: 'people',
    method: 'searchPeople',
    billable: false,
    timeout: 'lookup',
    args: { query: 'object' },
    toPort: (a, caller) => [a.query as unknown as PeopleSearchQuery, caller],
    isResult: isSearchResult,
    doc: { args: '`query` (object, below)', result: '`{found, matches}`' },
  }),
  'person.extract': operation({
    capability: 'people',
    method: 'purchasePersonExtract',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { registryIdentifier: 'string', options: 'object', clientKey: 'string' },
    toPort: (a, caller) => [
      a.registryIdentifier,
      a.options as unknown as PersonExtractOptions,
      caller,
      a.clientKey,
    ],
    isResult: (v) =>
      isObject(v) && typeof v.type === 'string' && isObject(v.person) && Array.isArray(v.roles),
    doc: {
      args: '`registryIdentifier`, `options` (object, below), `clientKey`',
      result: '`RegistryPersonExtract`',
    },
  }),
  'charges.plan': operation({
    capability: 'orders',
    method: 'planChargesExtract',
    billable: false,
    timeout: 'lookup',
    args: { number: 'string' },
    toPort: (a, caller) => [a.number, caller],
    isResult: (v) =>
      isObject(v) && isObject(v.company) && typeof v.scope === 'string' && Array.isArray(v.documents),
    doc: { args: '`number`', result: '`RegistryChargesExtractPlan`' },
  }),
  'documents.get': operation({
    capability: 'orders',
    method: 'getDocuments',
    billable: false,
    timeout: 'lookup',
    args: { numbers: 'strings' },
    toPort: (a, caller) => [a.numbers, caller],
    isResult: (v) => Array.isArray(v),
    doc: { args: '`numbers` (list of up to 50 document numbers)', result: '`RegistryImageableDocument[]`' },
  }),
  'images.request': operation({
    capability: 'orders',
    method: 'requestImages',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { clientKey: 'string', documents: 'objects' },
    toPort: (a, caller) => [
      { clientKey: a.clientKey, documents: a.documents as unknown as RegistryImageRequestItem[] },
      caller,
    ],
    isResult: (v) => isObject(v) && typeof v.registryRequestId === 'string',
    doc: { args: '`clientKey`, `documents` (list of up to 10, below)', result: '`{registryRequestId}`' },
  }),
  'images.status': operation({
    capability: 'orders',
    method: 'getImageRequest',
    billable: false,
    timeout: 'lookup',
    args: { registryRequestId: 'string' },
    toPort: (a, caller) => [a.registryRequestId, caller],
    isResult: (v) =>
      isObject(v) &&
      typeof v.registryRequestId === 'string' &&
      typeof v.status === 'string' &&
      Array.isArray(v.documents),
    doc: { args: '`registryRequestId`', result: '`RegistryImageRequestStatus`' },
  }),
  'images.get': operation({
    capability: 'orders',
    method: 'getImages',
    billable: false,
    timeout: 'long',
    args: { registryRequestId: 'string', documentNumber: 'string' },
    toPort: (a, caller) => [a.registryRequestId, a.documentNumber, caller],
    isResult: (v) => isObject(v) && typeof v.pdf === 'string' && v.pdf.startsWith(PDF_BASE64_PREFIX),
    wire: {
      encode: (pdf) => ({ pdf: Buffer.from(pdf).toString('base64') }),
      decode: (value) => new Uint8Array(Buffer.from((value as { pdf: string }).pdf, 'base64')),
    },
    doc: { args: '`registryRequestId`, `documentNumber`', result: '`{pdf}` (base64 PDF)' },
  }),
  'post.request': operation({
    capability: 'orders',
    method: 'requestPostalDelivery',
    billable: false,
    clientKey: (a) => a.delivery.clientKey,
    timeout: 'lookup',
    args: { delivery: 'object' },
    toPort: (a, caller) => [a.delivery as unknown as RegistryPostalDelivery, caller],
    isResult: (v) => isObject(v) && typeof v.dispatchId === 'string',
    doc: { args: '`delivery` (object, below, with its `clientKey`)', result: '`{dispatchId}`' },
  }),
  'search.offline': operation({
    capability: 'orders',
    method: 'searchCompaniesOffline',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { name: 'string', scope: 'string', clientKey: 'string' },
    toPort: (a, caller) => [{ name: a.name, scope: a.scope as CompanySearchScope }, caller, a.clientKey],
    isResult: (v) => isObject(v) && Array.isArray(v.matches),
    doc: { args: '`name`, `scope`, `clientKey`', result: '`{matches}`' },
  }),
  'purchase.outcome': operation({
    capability: 'purchases',
    method: 'findPurchase',
    billable: false,
    timeout: 'lookup',
    args: { clientKey: 'string' },
    toPort: (a, caller) => [a.clientKey, caller],
    isResult: (v): boolean =>
      isObject(v) &&
      (v.state === 'pending' ||
        v.state === 'none' ||
        (v.state === 'completed' && typeof v.operation === 'string' && isResultOf(v.operation, v.result))),
    doc: { args: '`clientKey`', result: '`RegistryPurchaseOutcome`' },
  }),
  'weekly.summary': operation({
    capability: 'weeklySummaries',
    method: 'purchaseWeeklySummary',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { type: 'string', weekStarting: 'string', clientKey: 'string' },
    toPort: (a, caller) => [
      { type: a.type as WeeklySummaryType, weekStarting: a.weekStarting },
      caller,
      a.clientKey,
    ],
    isResult: (v) =>
      isObject(v) &&
      typeof v.weekStarting === 'string' &&
      typeof v.totalCount === 'number' &&
      Array.isArray(v.items),
    doc: {
      args: '`type` (slug), `weekStarting` (a Monday), `clientKey`',
      result: '`RegistryWeeklySummary` (header, first page, `continuation`)',
    },
  }),
  'weekly.summary.items': operation({
    capability: 'weeklySummaries',
    method: 'weeklySummaryItems',
    billable: false,
    timeout: 'lookup',
    args: { continuation: 'string' },
    toPort: (a, caller) => [a.continuation, caller],
    isResult: (v) =>
      isObject(v) &&
      Array.isArray(v.items) &&
      (v.continuation === null || typeof v.continuation === 'string'),
    doc: { args: '`continuation`', result: '`{items, continuation}`' },
  }),
  'documents.details': operation({
    capability: 'records',
    method: 'getDocumentDetails',
    billable: false,
    timeout: 'lookup',
    args: { numbers: 'strings' },
    toPort: (a, caller) => [a.numbers, caller],
    isResult: (v) => Array.isArray(v),
    doc: {
      args: '`numbers` (list of up to 10 document numbers)',
      result: '`RegistryDocumentDetails[]` (in the order asked)',
    },
  }),
  'business-names.find': operation({
    capability: 'records',
    method: 'findBusinessNames',
    billable: false,
    timeout: 'lookup',
    args: { query: 'object' },
    toPort: (a, caller) => [a.query as unknown as BusinessNameQuery, caller],
    isResult: (v) => Array.isArray(v),
    doc: {
      args: '`query` {`number`, `stateNumber`, `jurisdiction`} (one kind of number)',
      result: '`RegistryBusinessName[]`',
    },
  }),
  'name-reservation.get': operation({
    capability: 'records',
    method: 'getNameReservation',
    billable: false,
    timeout: 'lookup',
    args: { number: 'string' },
    toPort: (a, caller) => [a.number, caller],
    isResult: (v) => isObject(v) && typeof v.number === 'string' && typeof v.expiresAt === 'string',
    doc: { args: '`number`', result: '`RegistryNameReservation`' },
  }),
  'register.browse': operation({
    capability: 'registers',
    method: 'browseRegister',
    billable: false,
    timeout: 'lookup',
    args: { register: 'string', key: 'string', limit: 'string', continuation: 'string' },
    toPort: (a, caller) => [
      { register: a.register, key: a.key, limit: Number(a.limit), continuation: a.continuation || null },
      caller,
    ],
    isResult: (v) =>
      isObject(v) &&
      Array.isArray(v.entries) &&
      (v.continuation === null || typeof v.continuation === 'string'),
    doc: {
      args: '`register` (code), `key` (name key), `limit` (1–100, as text), `continuation` (empty on the first page)',
      result: '`{entries, continuation}`',
    },
  }),
  'register.entry': operation({
    capability: 'registers',
    method: 'getRegisterEntry',
    billable: false,
    timeout: 'lookup',
    args: { register: 'string', number: 'string' },
    toPort: (a, caller) => [a.register, a.number, caller],
    isResult: (v) => isObject(v) && typeof v.register === 'string' && typeof v.number === 'string',
    doc: { args: '`register` (code), `number`', result: '`RegistryRegisterEntry`' },
  }),
  'register.extract': operation({
    capability: 'registers',
    method: 'purchaseRegisterExtract',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { register: 'string', number: 'string', type: 'string', clientKey: 'string' },
    toPort: (a, caller) => [
      { register: a.register, number: a.number, type: a.type as RegisterExtractType },
      caller,
      a.clientKey,
    ],
    isResult: (v) =>
      isObject(v) && typeof v.type === 'string' && isObject(v.entry) && Array.isArray(v.addresses),
    doc: {
      args: '`register` (code), `number`, `type` (`current` or `historical`), `clientKey`',
      result: '`RegistryRegisterExtract`',
    },
  }),
  'reference.forms': operation({
    capability: 'reference',
    method: 'getFormSchedule',
    billable: false,
    timeout: 'lookup',
    args: {},
    toPort: (_a, caller) => [caller],
    isResult: (v) => isObject(v) && Array.isArray(v.forms),
    doc: { args: 'none', result: "`{forms}` (`RegistryForm[]`, in the schedule's order)" },
  }),
  'reference.codeTables': operation({
    capability: 'reference',
    method: 'getCodeTables',
    billable: false,
    timeout: 'lookup',
    args: {},
    toPort: (_a, caller) => [caller],
    isResult: (v) => isObject(v) && Array.isArray(v.tables),
    doc: { args: 'none', result: "`{tables}` (`RegistryCodeTable[]`, entries in the registry's order)" },
  }),
};

export type RegistryOperation = keyof typeof registryProtocol;

/** A completed purchase's result is checked like the answer of its operation. */
function isResultOf(name: string, result: unknown): boolean {
  return isRegistryOperation(name) && operationSpec(name).isResult(result);
}

export const registryOperations = Object.keys(registryProtocol) as RegistryOperation[];

export function isRegistryOperation(name: string): name is RegistryOperation {
  return Object.hasOwn(registryProtocol, name);
}

/** One row of the table, typed loosely: for code that handles every operation alike. */
export function operationSpec(name: RegistryOperation): OperationSpec<RegistryMethod, ArgumentKinds> {
  return registryProtocol[name] as unknown as OperationSpec<RegistryMethod, ArgumentKinds>;
}

/** Operations the registry bills: each carries our client key, so a lost answer may be asked again. */
export const billableOperations: ReadonlySet<RegistryOperation> = new Set(
  registryOperations.filter((name) => registryProtocol[name].billable),
);

/**
 * Operations that carry our client key (every billable one, and the postal hand-over): the
 * registry answers a repeated key with the first call's outcome and does nothing more, so a lost
 * answer is retried like a read, and `purchase.outcome` tells what became of a key.
 */
export const keyedOperations: ReadonlySet<RegistryOperation> = new Set(
  registryOperations.filter((name) => operationSpec(name).clientKey !== undefined),
);

/** The client key of a keyed call as it arrived (any JSON), or null. */
export function clientKeyOf(name: RegistryOperation, args: Record<string, unknown>): string | null {
  const locate = operationSpec(name).clientKey;
  if (!locate) return null;
  let key: unknown;
  try {
    key = locate(args as WireArgs<ArgumentKinds>);
  } catch {
    key = undefined;
  }
  return typeof key === 'string' ? key : null;
}

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
