/**
 * Officeholders are read a page at a time from the extract's paged list (filed by status), not by
 * unzipping the whole section; an extract stored before they were paged is still read from its
 * section, with the same pages and cursors. Handlers driven in process with in-memory ports.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createHandler as officeholdersHandler } from '../../functions/companies/officeholders.ts';
import { createHandler as purchaseHandler } from '../../functions/companies/purchase-extract.ts';
import { lambdaContext } from '../../local/lambda-context.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { OFFICEHOLDER_PAGES } from '../../shared/companies/extracts.ts';
import { createSandboxRegistry } from '../../shared/composition/registry/sandbox.ts';
import { newKeyRecord } from '../../shared/kernel/api-keys.ts';
import { readConfig } from '../../shared/kernel/config.ts';
import { CursorCodec } from '../../shared/kernel/cursor.ts';
import {
  extractRoles,
  MemoryApiKeys,
  MemoryExtractStore,
  MemoryRequestLog,
  memoryIdempotency,
  OpenLimiter,
  openSpendGuard,
} from '../support/fakes.ts';

process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const NOW = new Date('2026-11-23T10:00:00Z');
const SECRET = 'sk_test_officeholderPages';
const COMPANY = SANDBOX.largeCompany;

async function prepare() {
  const clock = { now: () => NOW };
  const apiKeys = new MemoryApiKeys();
  const { hash, record } = newKeyRecord(SECRET, 'acct_pages', NOW);
  await apiKeys.create(hash, record);
  const registry = createSandboxRegistry(() => NOW);
  return {
    config: { ...readConfig({}), validateResponses: true },
    clock,
    apiKeys,
    limiter: new OpenLimiter(),
    requestLog: new MemoryRequestLog(),
    cursors: new CursorCodec(async () => 'unit-secret', clock),
    ...extractRoles(new MemoryExtractStore()),
    registryFor: () => registry,
    idempotency: memoryIdempotency(),
    spendGuard: openSpendGuard,
  };
}

function event(method: string, path: string, query: Record<string, string> = {}, body?: unknown) {
  return {
    resource: path,
    path,
    httpMethod: method,
    headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: Object.keys(query).length > 0 ? query : null,
    multiValueQueryStringParameters:
      Object.keys(query).length > 0
        ? Object.fromEntries(Object.entries(query).map(([name, value]) => [name, [value]]))
        : null,
    pathParameters: { id: COMPANY },
    stageVariables: null,
    body: body === undefined ? null : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: crypto.randomUUID() } as APIGatewayProxyEvent['requestContext'],
  } as APIGatewayProxyEvent;
}

interface ListBody {
  data: { status: { code: string } }[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number;
}
const parsed = (result: APIGatewayProxyResult) => JSON.parse(result.body) as ListBody;

async function readAll(ports: Awaited<ReturnType<typeof prepare>>, status: string) {
  const read = officeholdersHandler(ports);
  const context = lambdaContext('ListOfficeholders', 10_000);
  const seen: ListBody['data'] = [];
  let cursor: string | null = null;
  let total = -1;
  do {
    const result = await read(
      event('GET', `/v1/companies/${COMPANY}/officeholders`, {
        status,
        limit: '37',
        ...(cursor ? { cursor } : {}),
      }),
      context,
    );
    expect(result.statusCode, result.body).toBe(200);
    const body = parsed(result);
    seen.push(...body.data);
    cursor = body.nextCursor;
    total = body.totalCount;
  } while (cursor);
  return { seen, total };
}

describe('officeholder pages', () => {
  it('are read from the paged list, filed by status, never from the whole section', async () => {
    const ports = await prepare();
    const bought = await purchaseHandler(ports)(
      event('POST', `/v1/companies/${COMPANY}/extracts`, {}, { type: 'historical' }),
      lambdaContext('PurchaseCompanyExtract', 29_000),
    );
    expect(bought.statusCode, bought.body).toBe(201);
    const id = (JSON.parse(bought.body) as { id: string }).id;
    const section = (await ports.heldExtracts.getSection(id, 'officeholders')) as ListBody['data'];
    expect(section.length).toBeGreaterThan(100);
    expect(ports.heldExtracts.pagedLists.has(`${id}#${OFFICEHOLDER_PAGES}`)).toBe(true);

    let sectionReads = 0;
    const getSection = ports.heldExtracts.getSection.bind(ports.heldExtracts);
    ports.heldExtracts.getSection = async (...args) => {
      sectionReads += 1;
      return getSection(...args);
    };
    const byStatus = {
      all: section,
      current: section.filter((record) => record.status.code !== 'E'),
      ceased: section.filter((record) => record.status.code === 'E'),
    };
    expect(byStatus.current.length).toBeGreaterThan(0);
    expect(byStatus.ceased.length).toBeGreaterThan(37 * 2);
    for (const [status, expected] of Object.entries(byStatus)) {
      const { seen, total } = await readAll(ports, status);
      expect(seen, status).toEqual(expected);
      expect(total, status).toBe(expected.length);
    }
    expect(sectionReads).toBe(0);

    // An extract stored before officeholders were paged: the same pages from its section.
    ports.heldExtracts.pagedLists.delete(`${id}#${OFFICEHOLDER_PAGES}`);
    for (const [status, expected] of Object.entries(byStatus)) {
      expect((await readAll(ports, status)).seen, status).toEqual(expected);
    }
    expect(sectionReads).toBeGreaterThan(0);
  });
});
