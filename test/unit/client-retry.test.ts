/** The typed client's retries (clients/typescript/index.ts): what is retried, after how long, and with which key. */
import { describe, expect, it } from 'vitest';
import { createCompanyRegisterClient, retryDelayMs, retryingFetch } from '../../clients/typescript/index.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const rateLimited = () =>
  json(429, { error: { type: 'rate_limit_error', code: 'rate_limited' } }, { 'Retry-After': '7' });

/** A fetch answering from a script, recording what it was sent. */
function scripted(...answers: (() => Response)[]) {
  const sent: Request[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push(request);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  };
  return { fetcher, sent };
}

describe('retryingFetch', () => {
  it('waits Retry-After seconds after a 429, then sends the same request again', async () => {
    const { fetcher, sent } = scripted(rateLimited, () => json(200, { ok: true }));
    const waits: number[] = [];
    const retrying = retryingFetch(fetcher, { sleep: async (ms) => void waits.push(ms) });
    const response = await retrying('https://api.example.com/v1/usage', {
      headers: { Authorization: 'Bearer k' },
    });
    expect(response.status).toBe(200);
    expect(waits).toEqual([7000]);
    expect(sent.map((r) => [r.method, r.url, r.headers.get('Authorization')])).toEqual([
      ['GET', 'https://api.example.com/v1/usage', 'Bearer k'],
      ['GET', 'https://api.example.com/v1/usage', 'Bearer k'],
    ]);
  });

  it('waits on a purchase still in progress (409 idempotency_key_in_use) for Retry-After, then gets its answer', async () => {
    const inProgress = () =>
      json(
        409,
        { error: { type: 'conflict_error', code: 'idempotency_key_in_use', param: 'Idempotency-Key' } },
        { 'Retry-After': '12' },
      );
    const { fetcher, sent } = scripted(inProgress, () => json(201, { id: 'ext_1' }));
    const waits: number[] = [];
    const retrying = retryingFetch(fetcher, { sleep: async (ms) => void waits.push(ms) });
    const response = await retrying('https://api.example.com/v1/companies/990000149/extracts', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k-2', 'Content-Type': 'application/json' },
      body: '{"type":"current"}',
    });
    expect(response.status).toBe(201);
    expect(waits).toEqual([12_000]);
    expect(sent.map((r) => r.headers.get('Idempotency-Key'))).toEqual(['k-2', 'k-2']);
  });

  it('never retries a key reused with a different request (409 idempotency_conflict)', async () => {
    const conflict = () =>
      json(409, {
        error: { type: 'conflict_error', code: 'idempotency_conflict', param: 'Idempotency-Key' },
      });
    const { fetcher, sent } = scripted(conflict, () => json(201, { id: 'ext_1' }));
    const retrying = retryingFetch(fetcher, { sleep: async () => {} });
    const response = await retrying('https://api.example.com/v1/companies/990000149/extracts', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k-3', 'Content-Type': 'application/json' },
      body: '{"type":"current"}',
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('idempotency_conflict');
    expect(sent).toHaveLength(1);
  });

  it('retries a purchase only with its Idempotency-Key, resending the same key and body', async () => {
    const unavailable = () =>
      json(503, { error: { code: 'registry_unavailable' } }, { 'Retry-After': '300' });
    const keyed = scripted(unavailable, () => json(201, { id: 'ext_1' }));
    const retrying = retryingFetch(keyed.fetcher, { sleep: async () => {}, maxDelaySeconds: 60 });
    const init = {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k-1', 'Content-Type': 'application/json' },
      body: '{"type":"current"}',
    };
    expect((await retrying('https://api.example.com/v1/companies/990000149/extracts', init)).status).toBe(
      201,
    );
    expect(keyed.sent.map((r) => r.headers.get('Idempotency-Key'))).toEqual(['k-1', 'k-1']);
    expect(await Promise.all(keyed.sent.map((r) => r.text()))).toEqual([
      '{"type":"current"}',
      '{"type":"current"}',
    ]);

    const unkeyed = scripted(unavailable);
    const once = retryingFetch(unkeyed.fetcher, { sleep: async () => {} });
    const response = await once('https://api.example.com/v1/companies/990000149/extracts', {
      method: 'POST',
      body: '{"type":"current"}',
    });
    expect(response.status).toBe(503);
    expect(unkeyed.sent).toHaveLength(1);
  });

  it('gives up after the retries allowed, and never retries a 4xx other than 429', async () => {
    const { fetcher, sent } = scripted(rateLimited, rateLimited, rateLimited);
    const retrying = retryingFetch(fetcher, { retries: 2, sleep: async () => {} });
    expect((await retrying('https://api.example.com/v1/usage')).status).toBe(429);
    expect(sent).toHaveLength(3);
    const notFound = scripted(() => json(404, { error: { code: 'company_not_found' } }));
    expect((await retryingFetch(notFound.fetcher)('https://api.example.com/v1/companies/1')).status).toBe(
      404,
    );
    expect(notFound.sent).toHaveLength(1);
  });

  it('caps the wait, and backs off exponentially when there is no Retry-After', () => {
    expect(retryDelayMs(json(503, {}, { 'Retry-After': '300' }), 0, 60)).toBe(60_000);
    const first = retryDelayMs(json(503, {}), 0);
    const third = retryDelayMs(json(503, {}), 2);
    expect(first).toBeGreaterThanOrEqual(500);
    expect(first).toBeLessThanOrEqual(1000);
    expect(third).toBeGreaterThanOrEqual(2000);
    expect(third).toBeLessThanOrEqual(4000);
  });
});

describe('createCompanyRegisterClient', () => {
  it('sends the key as a bearer token to the typed path', async () => {
    const { fetcher, sent } = scripted(() =>
      json(200, { object: 'list', data: [], hasMore: false, nextCursor: null, totalCount: 0 }),
    );
    const client = createCompanyRegisterClient({
      baseUrl: 'https://api.example.com/prod/',
      apiKey: 'sk_test_x',
      fetch: fetcher,
    });
    const { data } = await client.GET('/v1/reference/code-tables', {});
    expect(data?.object).toBe('list');
    expect(sent[0]?.url).toBe('https://api.example.com/prod/v1/reference/code-tables');
    expect(sent[0]?.headers.get('Authorization')).toBe('Bearer sk_test_x');
  });
});
