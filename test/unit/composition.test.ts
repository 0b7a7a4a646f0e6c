/**
 * A handler module gets every port it uses from its caller: built with in-memory fakes, the
 * company extract purchase runs through the real pipeline (authentication, limits, validation,
 * idempotency, the envelope) with no environment, no DynamoDB and no HTTP, and what it stored is
 * read back by another handler given the same ports.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createHandler as purchaseHandler } from '../../functions/companies/purchase-extract.ts';
import { createHandler as readHandler } from '../../functions/extracts/get.ts';
import { lambdaContext } from '../../local/lambda-context.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { createSandboxRegistry } from '../../shared/composition/registry/sandbox.ts';
import { newKeyRecord } from '../../shared/kernel/api-keys.ts';
import { toTimestamp } from '../../shared/kernel/clock.ts';
import { readConfig } from '../../shared/kernel/config.ts';
import { CursorCodec } from '../../shared/kernel/cursor.ts';
import {
  extractRoles,
  KeyedRegistry,
  MemoryApiKeys,
  MemoryExtractStore,
  MemoryRequestLog,
  memoryIdempotency,
  OpenLimiter,
  openSpendGuard,
} from '../support/fakes.ts';
import { bearer, proxyEvent } from '../support/proxy-event.ts';

// Powertools' own setting (as on Lambda): no metric lines in the test output.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const NOW = new Date('2026-11-23T10:00:00Z');
const SECRET = 'sk_live_composition1';

/** Prepare: a live key, empty stores and a registry in memory, one fixed clock. */
async function prepare() {
  const clock = { now: () => NOW };
  const apiKeys = new MemoryApiKeys();
  const { hash, record } = newKeyRecord(SECRET, 'acct_composition', NOW);
  await apiKeys.create(hash, record);
  const keyed = new KeyedRegistry(createSandboxRegistry(() => NOW));
  const ports = {
    config: { ...readConfig({}), validateResponses: true },
    clock,
    apiKeys,
    limiter: new OpenLimiter(),
    requestLog: new MemoryRequestLog(),
    cursors: new CursorCodec(async () => 'unit-secret', clock),
    ...extractRoles(new MemoryExtractStore()),
    registryFor: () => keyed.registry,
    idempotency: memoryIdempotency(),
    spendGuard: openSpendGuard,
  };
  return { ports, keyed };
}

function event(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const pathParameters = /^\/v1\/companies\/(\d+)\//.exec(path) ?? /^\/v1\/extracts\/(\w+)$/.exec(path);
  return proxyEvent({
    method,
    path,
    headers: { ...bearer(SECRET), 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? null : JSON.stringify(body),
    pathParameters: pathParameters ? { id: pathParameters[1] as string } : null,
  });
}

interface Body {
  id?: string;
  error?: { code: string; param: string | null };
  [field: string]: unknown;
}
const parsed = (result: APIGatewayProxyResult) => JSON.parse(result.body) as Body;

describe('handlers built from the ports they are given', () => {
  it('buys a company extract with in-memory ports only, once per Idempotency-Key, and reads it back', async () => {
    const { ports, keyed } = await prepare();
    const purchase = purchaseHandler(ports);
    const path = `/v1/companies/${SANDBOX.proprietary}/extracts`;
    const context = lambdaContext('PurchaseCompanyExtract', 29_000);

    const first = await purchase(
      event('POST', path, { type: 'current' }, { 'Idempotency-Key': 'unit-1' }),
      context,
    );
    const again = await purchase(
      event('POST', path, { type: 'current' }, { 'Idempotency-Key': 'unit-1' }),
      context,
    );
    const conflict = await purchase(
      event('POST', path, { type: 'historical' }, { 'Idempotency-Key': 'unit-1' }),
      context,
    );

    expect(first.statusCode).toBe(201);
    const bought = parsed(first);
    expect(bought).toMatchObject({
      object: 'extract',
      type: 'current',
      purchasedAt: toTimestamp(NOW),
      meta: { billable: true, product: 'company_extract_current' },
    });
    expect(again.statusCode).toBe(201);
    expect(parsed(again).id).toBe(bought.id);
    expect(conflict.statusCode).toBe(409);
    expect(parsed(conflict).error).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
    expect(keyed.billed).toHaveLength(1);
    expect([...ports.heldExtracts.fees.values()].map((fee) => fee.feeCode)).toEqual(['955A']);
    expect(ports.limiter.acquired).toBe(3);
    expect(ports.limiter.released).toBe(3);

    const read = await readHandler(ports)(event('GET', `/v1/extracts/${bought.id}`), context);
    expect(read.statusCode).toBe(200);
    expect(parsed(read)).toMatchObject({ id: bought.id, meta: { billable: false, product: null } });
  });

  it('reads nothing from the environment', async () => {
    const { ports } = await prepare();
    for (const name of ['MAIN_TABLE', 'KEYS_TABLE', 'LIMITS_TABLE', 'IDEMPOTENCY_TABLE', 'REGISTRY_URL']) {
      expect(process.env[name], name).toBeUndefined();
    }
    const unknown = await purchaseHandler(ports)(
      event(
        'POST',
        '/v1/companies/990000014/extracts',
        { type: 'current' },
        { Authorization: 'Bearer sk_live_nobody1' },
      ),
      lambdaContext('PurchaseCompanyExtract', 29_000),
    );
    expect(unknown.statusCode).toBe(401);
    expect(parsed(unknown).error?.code).toBe('unauthorized');
  });
});
