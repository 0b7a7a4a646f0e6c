/**
 * The typed client (clients/typescript/index.ts): what is retried, after how long and with which
 * key, which POSTs get an Idempotency-Key, and paging through a list.
 */
import { describe, expect, it } from 'vitest';
import {
  CompanyRegisterError,
  CompanyRegisterNetworkError,
  createCompanyRegisterClient,
  idempotencyKeyOf,
  retryDelayMs,
  retryingFetch,
} from '../../clients/typescript/index.ts';

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

  it('waits on a purchase still in progress (429 idempotency_key_in_use) for Retry-After, then gets its answer', async () => {
    const inProgress = () =>
      json(
        429,
        { error: { type: 'rate_limit_error', code: 'idempotency_key_in_use', param: 'Idempotency-Key' } },
        { 'Retry-After': '5' },
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
    expect(waits).toEqual([5_000]);
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

  it('retries any request after a 429, which the API refuses before anything runs', async () => {
    const { fetcher, sent } = scripted(rateLimited, () => json(201, { id: 'we_1' }));
    const retrying = retryingFetch(fetcher, { sleep: async () => {} });
    const response = await retrying('https://api.example.com/v1/webhook-endpoints', {
      method: 'POST',
      body: '{"url":"https://hooks.example.com/a"}',
    });
    expect(response.status).toBe(201);
    expect(sent).toHaveLength(2);
  });

  it('retries a keyed purchase whose connection failed (a crash, a reset), with the same key and body; never an unkeyed POST', async () => {
    const reset = () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    };
    const keyed = scripted(reset, reset, () => json(201, { id: 'ext_1' }));
    const waits: number[] = [];
    const retrying = retryingFetch(keyed.fetcher, { sleep: async (ms) => void waits.push(ms) });
    const init = { method: 'POST', headers: { 'Idempotency-Key': 'k-net' }, body: '{"type":"current"}' };
    const response = await retrying('https://api.example.com/v1/companies/990000149/extracts', init);
    expect(response.status).toBe(201);
    expect(idempotencyKeyOf(response)).toBe('k-net');
    expect(keyed.sent.map((r) => r.headers.get('Idempotency-Key'))).toEqual(['k-net', 'k-net', 'k-net']);
    expect(await Promise.all(keyed.sent.map((r) => r.text()))).toEqual(Array(3).fill('{"type":"current"}'));
    // Backed off and jittered: 0.5–1 s, then 1–2 s.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(500);
    expect(waits[0]).toBeLessThanOrEqual(1_000);
    expect(waits[1]).toBeGreaterThanOrEqual(1_000);
    expect(waits[1]).toBeLessThanOrEqual(2_000);

    // A read is retried too.
    const read = scripted(reset, () => json(200, { object: 'list' }));
    expect(
      (await retryingFetch(read.fetcher, { sleep: async () => {} })('https://api.example.com/v1/usage'))
        .status,
    ).toBe(200);
    expect(read.sent).toHaveLength(2);

    // A POST without a key might have run: the error reaches the caller at once.
    const unkeyed = scripted(reset, () => json(201, {}));
    const failure = await retryingFetch(unkeyed.fetcher, { sleep: async () => {} })(
      'https://api.example.com/v1/people/searches',
      { method: 'POST', body: '{}' },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CompanyRegisterNetworkError);
    expect(failure).toMatchObject({ attempts: 1, idempotencyKey: undefined });
    expect(unkeyed.sent).toHaveLength(1);
  });

  it('gives up on a connection that never answers after its retries, with the key to retry with later', async () => {
    const refused = () => {
      throw new TypeError('fetch failed');
    };
    const { fetcher, sent } = scripted(refused, refused, refused);
    const failure = await retryingFetch(fetcher, { retries: 2, sleep: async () => {} })(
      'https://api.example.com/v1/people/extracts',
      { method: 'POST', headers: { 'Idempotency-Key': 'k-later' }, body: '{}' },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CompanyRegisterNetworkError);
    expect(failure).toMatchObject({ attempts: 3, idempotencyKey: 'k-later' });
    expect((failure as Error).cause).toBeInstanceOf(TypeError);
    expect(sent).toHaveLength(3);
  });

  it('retries a 500 once and a 502 once (spec 7.2), a 503 until its retries run out, and never a keyless 5xx', async () => {
    const status = (code: number) => () =>
      json(code, { error: { code: `e${code}` } }, { 'Retry-After': '1' });
    const init = { method: 'POST', headers: { 'Idempotency-Key': 'k-5xx' }, body: '{}' };
    const url = 'https://api.example.com/v1/people/extracts';
    const twice500 = scripted(status(500), status(500), () => json(201, {}));
    expect((await retryingFetch(twice500.fetcher, { sleep: async () => {} })(url, init)).status).toBe(500);
    expect(twice500.sent).toHaveLength(2);
    const mixed = scripted(status(500), status(502), status(503), status(503), () => json(201, {}));
    expect((await retryingFetch(mixed.fetcher, { sleep: async () => {} })(url, init)).status).toBe(201);
    expect(mixed.sent).toHaveLength(5);
    const twice502 = scripted(status(502), status(502), () => json(201, {}));
    expect((await retryingFetch(twice502.fetcher, { sleep: async () => {} })(url, init)).status).toBe(502);
    expect(twice502.sent).toHaveLength(2);
    const keyless = scripted(status(500), () => json(201, {}));
    const answer = await retryingFetch(keyless.fetcher, { sleep: async () => {} })(url, {
      method: 'POST',
      body: '{}',
    });
    expect(answer.status).toBe(500);
    expect(keyless.sent).toHaveLength(1);
  });

  it('never retries a definite 4xx, whatever it carries', async () => {
    for (const [code, type] of [
      [400, 'invalid_request_error'],
      [401, 'authentication_error'],
      [402, 'extract_required_error'],
      [403, 'permission_error'],
      [404, 'not_found_error'],
      [409, 'conflict_error'],
      [410, 'invalid_request_error'],
      [422, 'invalid_request_error'],
    ] as const) {
      const { fetcher, sent } = scripted(
        () => json(code, { error: { type, code: 'x' } }, { 'Retry-After': '1' }),
        () => json(201, {}),
      );
      const response = await retryingFetch(fetcher, { sleep: async () => {} })(
        'https://api.example.com/v1/people/extracts',
        { method: 'POST', headers: { 'Idempotency-Key': 'k' }, body: '{}' },
      );
      expect([code, response.status, sent.length]).toEqual([code, code, 1]);
    }
  });

  it('gives up after the retries allowed (6 by default), and never retries a 4xx other than 429', async () => {
    const { fetcher, sent } = scripted(rateLimited, rateLimited, rateLimited);
    const retrying = retryingFetch(fetcher, { retries: 2, sleep: async () => {} });
    expect((await retrying('https://api.example.com/v1/usage')).status).toBe(429);
    expect(sent).toHaveLength(3);
    const many = scripted(...Array.from({ length: 8 }, () => rateLimited));
    expect(
      (await retryingFetch(many.fetcher, { sleep: async () => {} })('https://api.example.com/v1/usage'))
        .status,
    ).toBe(429);
    expect(many.sent).toHaveLength(7);
    const notFound = scripted(() => json(404, { error: { code: 'company_not_found' } }));
    expect((await retryingFetch(notFound.fetcher)('https://api.example.com/v1/companies/1')).status).toBe(
      404,
    );
    expect(notFound.sent).toHaveLength(1);
  });

  it('caps the wait, backs off exponentially when there is no Retry-After, and never waits less than the backoff', () => {
    expect(retryDelayMs(json(503, {}, { 'Retry-After': '300' }), 0, 60)).toBe(60_000);
    const at = new Date(Date.now() + 30_000).toUTCString();
    const untilDate = retryDelayMs(json(503, {}, { 'Retry-After': at }), 0, 60);
    expect(untilDate).toBeGreaterThan(28_000);
    expect(untilDate).toBeLessThanOrEqual(30_000);
    const first = retryDelayMs(json(503, {}), 0);
    const third = retryDelayMs(json(503, {}), 2);
    expect(first).toBeGreaterThanOrEqual(500);
    expect(first).toBeLessThanOrEqual(1000);
    expect(third).toBeGreaterThanOrEqual(2000);
    expect(third).toBeLessThanOrEqual(4000);
    const shortAfterMany = retryDelayMs(json(503, {}, { 'Retry-After': '1' }), 3);
    expect(shortAfterMany).toBeGreaterThanOrEqual(4000);
    expect(retryDelayMs({ networkError: new TypeError('fetch failed') }, 0)).toBeLessThanOrEqual(1000);
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

  it("gives each purchase or order a fresh Idempotency-Key, keeps the caller's, and gives none to other POSTs", async () => {
    const { fetcher, sent } = scripted(
      () => json(201, {}),
      () => json(201, {}),
      () => json(201, {}),
      () => json(201, {}),
    );
    const client = createCompanyRegisterClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'k',
      fetch: fetcher,
    });
    const purchase = () =>
      client.POST('/v1/companies/{id}/extracts', {
        params: { path: { id: '990000149' } },
        body: { type: 'current' },
      });
    await purchase();
    await purchase();
    await client.POST('/v1/companies/{id}/extracts', {
      params: { path: { id: '990000149' }, header: { 'Idempotency-Key': 'mine' } },
      body: { type: 'current' },
    });
    await client.POST('/v1/webhook-endpoints', {
      body: { url: 'https://hooks.example.com/a', enabledEvents: ['order.ready'] },
    });
    const keys = sent.map((request) => request.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual(['mine', null]);
  });

  it('keeps its generated key across its own retries of a purchase', async () => {
    const { fetcher, sent } = scripted(
      () => json(503, { error: { code: 'registry_unavailable' } }),
      () => json(201, { id: 'ext_1' }),
    );
    const client = createCompanyRegisterClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'k',
      fetch: fetcher,
      sleep: async () => {},
    });
    const bought = await client.POST('/v1/companies/{id}/extracts', {
      params: { path: { id: '990000149' } },
      body: { type: 'current' },
    });
    expect(bought.response.status).toBe(201);
    const [first, second] = sent.map((request) => request.headers.get('Idempotency-Key'));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    // The caller can keep the key it was bought with.
    expect(idempotencyKeyOf(bought.response)).toBe(first);
  });
});

const page = (data: unknown[], nextCursor: string | null) =>
  json(200, { object: 'list', data, hasMore: nextCursor !== null, nextCursor, totalCount: null });

describe('client.list', () => {
  it("yields every item of every page, following nextCursor with the caller's filters", async () => {
    const { fetcher, sent } = scripted(
      () => page([{ id: 'ext_1' }, { id: 'ext_2' }], 'c2'),
      () => page([{ id: 'ext_3' }], 'c3'),
      () => page([], null),
    );
    const client = createCompanyRegisterClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'k',
      fetch: fetcher,
    });
    const ids: string[] = [];
    for await (const extract of client.list('/v1/extracts', { params: { query: { limit: 2 } } }))
      ids.push(extract.id);
    expect(ids).toEqual(['ext_1', 'ext_2', 'ext_3']);
    expect(sent.map((request) => new URL(request.url).search)).toEqual([
      '?limit=2',
      '?limit=2&cursor=c2',
      '?limit=2&cursor=c3',
    ]);
  });

  it("pages a weekly summary's items", async () => {
    const summary = (data: unknown[], nextCursor: string | null) =>
      json(200, { id: 'ext_w', items: { object: 'list', data, hasMore: nextCursor !== null, nextCursor } });
    const { fetcher, sent } = scripted(
      () => summary([{ name: 'A' }], 'i2'),
      () => summary([{ name: 'B' }], null),
    );
    const client = createCompanyRegisterClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'k',
      fetch: fetcher,
    });
    const items: unknown[] = [];
    for await (const item of client.list('/v1/weekly-summaries/{id}', { params: { path: { id: 'ext_w' } } }))
      items.push(item);
    expect(items).toEqual([{ name: 'A' }, { name: 'B' }]);
    expect(sent.map((request) => new URL(request.url).pathname + new URL(request.url).search)).toEqual([
      '/v1/weekly-summaries/ext_w',
      '/v1/weekly-summaries/ext_w?cursor=i2',
    ]);
  });

  it('throws the error envelope when a page is refused', async () => {
    const envelope = {
      error: {
        type: 'invalid_request_error',
        code: 'invalid_cursor',
        message: 'cursor does not belong to this list',
        param: 'cursor',
        registryCode: null,
        requestId: 'req_1',
        docUrl: 'https://docs.example.com/errors#invalid_cursor',
      },
    };
    const { fetcher } = scripted(
      () => page([{ id: 'ext_1' }], 'bad'),
      () => json(400, envelope),
    );
    const client = createCompanyRegisterClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'k',
      fetch: fetcher,
    });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const extract of client.list('/v1/extracts')) seen.push(extract.id);
    })().catch((error: unknown) => error);
    expect(seen).toEqual(['ext_1']);
    expect(failure).toBeInstanceOf(CompanyRegisterError);
    expect(failure).toMatchObject({ status: 400, body: envelope });
  });
});
