import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { type SimulatorCall, simulatorControl } from '../../local/registry-simulator.ts';
import type { RegistryOperation } from '../../shared/composition/registry/protocol.ts';
import { type Environment, newKeyRecord } from '../../shared/kernel/api-keys.ts';
import { checkContract } from './contract.ts';
import { testPorts } from './ports.ts';
import { localStack } from './stack.ts';

export const baseUrl = localStack.baseUrl;

/** `meta` of every success body. */
export interface Meta {
  billable: boolean;
  product: string | null;
  requestId: string;
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string | null;
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls the local API like a client would. */
export async function call<T = Record<string, unknown>>(
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  const method = options.method ?? 'GET';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  // Every response must be one docs/openapi.json documents for the request (test/support/contract.ts).
  checkContract(method, path, { status: response.status, headers: response.headers, body: parsed });
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export interface TestKey {
  secret: string;
  accountId: string;
  environment: Environment;
  keyId: string;
}

/** A fresh key (and by default a fresh account), stored hashed like the key admin command does. */
export async function createKey(
  environment: Environment = 'test',
  options: { accountId?: string; expiresAt?: Date } = {},
): Promise<TestKey> {
  const secret = `sk_${environment}_${randomBytes(16).toString('hex')}`;
  const accountId = options.accountId ?? `acct_t${randomBytes(6).toString('hex')}`;
  const { hash, record } = newKeyRecord(secret, accountId, new Date(), options.expiresAt ?? null);
  await testPorts.apiKeys.create(hash, record);
  return { secret, accountId, environment, keyId: record.keyId };
}

export async function revokeKey(key: TestKey): Promise<void> {
  await testPorts.apiKeys.revoke(key.keyId, key.accountId, new Date());
}

export const clock = {
  advance: (ms: number) => call('/__local/clock', { method: 'POST', body: { advanceMs: ms } }),
  reset: () => call('/__local/clock', { method: 'DELETE' }),
};

/** What one sweep did with the purchases left unsettled. */
export interface SweptPurchases {
  committed: number;
  forgotten: number;
  waiting: number;
}

/** Runs the sweeper as its schedule would, once the purchases left behind are older than five minutes. */
export async function sweepLater(): Promise<SweptPurchases> {
  await clock.advance(6 * 60_000);
  const swept = await call<{ purchases: SweptPurchases }>('/__local/sweep', { method: 'POST' });
  expect(swept.status).toBe(200);
  return swept.body.purchases;
}

export interface ErrorBody {
  error: {
    type: string;
    code: string;
    message: string;
    param: string | null;
    registryCode: string | null;
    requestId: string;
    details?: Record<string, unknown>;
    docUrl: string;
  };
}

/** Asserts nothing itself: returns the error fields for exact comparisons. */
export const errorOf = (response: ApiResponse<unknown>) => (response.body as ErrorBody).error;

/** Asserts a whole error envelope: status, every field, and that ids and links line up. */
export function expectError(
  response: ApiResponse<unknown>,
  status: number,
  expected: {
    type: string;
    code: string;
    param: string | null;
    registryCode?: string | null;
    details?: Record<string, unknown>;
  },
) {
  expect(response.status, response.text).toBe(status);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_./);
  expect(response.body).toStrictEqual({
    error: {
      type: expected.type,
      code: expected.code,
      message: expect.any(String),
      param: expected.param,
      registryCode: expected.registryCode ?? null,
      requestId,
      ...(expected.details === undefined ? {} : { details: expected.details }),
      docUrl: expect.stringMatching(new RegExp(`^https?://.+/errors#${expected.code}$`)),
    },
  });
}

export const validationError = (param: string) => ({
  type: 'invalid_request_error',
  code: 'validation_error',
  param,
});

/** The registry simulator live keys reach: inject faults, read what it was asked and billed. */
export const simulator = simulatorControl(localStack.registryUrl);

/** Local storage faults: make the next `n` extract commits fail. */
export async function failNextCommits(n: number): Promise<void> {
  const response = await fetch(`${baseUrl}/__local/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ failCommits: n }),
  });
  if (!response.ok) throw new Error(`faults: ${response.status}`);
}

/**
 * Billed calls of one operation (company extracts unless named) the simulator served for an
 * account: purchases, offline searches, image requests (a repeat of a client key is not billed).
 */
export async function registryPurchases(
  accountId: string,
  operation: 'company.extract' | 'person.extract' | 'search.offline' | 'images.request' = 'company.extract',
): Promise<number> {
  const { calls } = await simulator.calls();
  return calls.filter((c) => c.accountId === accountId && c.operation === operation && c.billed).length;
}

/** Every call of one operation the simulator received for an account, whatever its outcome; of one client key when given. */
export async function registryCalls(
  accountId: string,
  operation: RegistryOperation,
  clientKey?: string,
): Promise<SimulatorCall[]> {
  const { calls } = await simulator.calls();
  return calls.filter(
    (c) =>
      c.accountId === accountId &&
      c.operation === operation &&
      (clientKey === undefined || c.clientKey === clientKey),
  );
}

/** Ids of the image requests the simulator made for an account (of one client key when given); a repeated key adds none. */
export const registryImageRequests = async (accountId: string, clientKey?: string): Promise<string[]> =>
  (await registryCalls(accountId, 'images.request', clientKey)).flatMap((c) =>
    c.outcome === 'ok' && !c.repeated && c.reference ? [c.reference] : [],
  );

/** Dispatch ids of the postal hand-overs the simulator made for an account (of one client key when given); a repeated key adds none. */
export const registryPostalDeliveries = async (accountId: string, clientKey?: string): Promise<string[]> =>
  (await registryCalls(accountId, 'post.request', clientKey)).flatMap((c) =>
    c.outcome === 'ok' && !c.repeated && c.reference ? [c.reference] : [],
  );

/** POST /v1/companies/{id}/extracts. */
export const buyExtract = (key: string, id: string, type: string, headers: Record<string, string> = {}) =>
  call<Record<string, unknown> & { id: string }>(`/v1/companies/${encodeURIComponent(id)}/extracts`, {
    key,
    method: 'POST',
    body: { type },
    headers,
  });

/** `personMatch` (spec document 1, 2.6): a person as a search found them. */
export interface PersonMatch {
  object: 'person';
  id: string;
  name: { familyName: string; givenNames: string[]; formatted: string };
  birth: { date: string | null; locality: string | null; stateOrCountry: string | null } | null;
  formerName: { familyName: string; givenNames: string[]; formatted: string } | null;
}

export interface PeopleSearchBody {
  object: 'peopleSearch';
  id: string;
  familyName: string;
  givenName: string;
  birthDateFrom: string | null;
  birthDateTo: string | null;
  createdAt: string;
  expiresAt: string;
  totalCount: number;
  found: number;
  data: PersonMatch[];
  meta: Meta;
}

/** POST /v1/people/searches. */
export const searchPeople = (key: string, body: Record<string, unknown>) =>
  call<PeopleSearchBody>('/v1/people/searches', { key, method: 'POST', body });

/** A people search that must succeed (201). */
export async function searchedPeople(
  key: string,
  familyName: string,
  givenName: string,
  range: { birthDateFrom?: string; birthDateTo?: string } = {},
): Promise<PeopleSearchBody> {
  const response = await searchPeople(key, { familyName, givenName, ...range });
  expect(response.status, response.text.slice(0, 500)).toBe(201);
  return response.body;
}

/** POST /v1/people/extracts. */
export const buyPeople = <T = Record<string, unknown>>(
  key: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) => call<T>('/v1/people/extracts', { key, method: 'POST', body, headers });

/** A fee entry as GET /v1/usage shows it. */
export interface FeeEntryBody {
  object: string;
  at: string;
  product: string;
  feeCode: string | null;
  quantity: number;
  billable: boolean;
  clientReference: string | null;
  requestId: string;
  resourceId: string;
}

export type Coded = { code: string; label: string };

/** A role record as the person endpoints show it (document 1, 2.6). */
export interface RoleRecord {
  object: 'role';
  role: Coded;
  status: Coded;
  appointedAt: string | null;
  ceasedAt: string | null;
  company: { acn: string; registeredCharity: boolean } & Record<string, unknown>;
  address: Record<string, unknown> | null;
  sourceDocument: { documentNumber: string; qualifier: string | null } | null;
}

/** The purchase headers sent wrong, each answered 422 `validation_error` on that header. */
export const MALFORMED_PURCHASE_HEADERS: [string, Record<string, string>, string][] = [
  ['an empty Idempotency-Key', { 'Idempotency-Key': '' }, 'Idempotency-Key'],
  ['an Idempotency-Key of 256 characters', { 'Idempotency-Key': 'k'.repeat(256) }, 'Idempotency-Key'],
  ['an X-Client-Reference of 31 characters', { 'X-Client-Reference': 'x'.repeat(31) }, 'X-Client-Reference'],
];
