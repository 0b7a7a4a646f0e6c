/**
 * Requests too large or too deep for the service: deeply nested JSON bodies, bodies over the
 * body limit, and URLs over the header limit, all answered with the error envelope.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES } from '../../local/server.ts';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../../shared/kernel/http/request.ts';
import { orderRoutes } from '../../shared/orders/routes.ts';
import { baseUrl, call, createKey, errorOf, expectError, type TestKey } from '../support/api.ts';

/** `depth` arrays, one inside the other. */
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** The three order routes, each with a body that is valid apart from `delivery`. */
const orderCalls = [
  {
    route: orderRoutes.orderDocumentImages,
    path: orderRoutes.orderDocumentImages.path,
    body: (delivery: string) => `{"documents":[{"documentNumber":"012345678"}],"delivery":${delivery}}`,
  },
  {
    route: orderRoutes.orderChargesExtract,
    path: orderRoutes.orderChargesExtract.path.replace('{id}', '000000019'),
    body: (delivery: string) => `{"delivery":${delivery}}`,
  },
  {
    route: orderRoutes.createOfflineSearch,
    path: orderRoutes.createOfflineSearch.path,
    body: (delivery: string) => `{"q":"acme","delivery":${delivery}}`,
  },
] as const;

describe('JSON nesting depth', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await createKey('test');
  });

  const post = (path: string, body: string, idempotencyKey?: string) =>
    call(path, {
      key: key.secret,
      method: 'POST',
      rawBody: body,
      headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
    });

  it('covers every order route of the route table', () => {
    expect(orderCalls.map((c) => c.route.name).sort()).toEqual(
      Object.values(orderRoutes)
        .filter((route) => route.method === 'POST' && route.idempotent)
        .map((route) => route.name)
        .sort(),
    );
  });

  it.each(orderCalls.map((c) => [c.route.name, c] as const))(
    '%s: a delivery nested 5,000 arrays deep is 400 invalid_json, with or without Idempotency-Key',
    async (_, order) => {
      const body = order.body(nestedArrays(5000));
      for (const idempotencyKey of [randomUUID(), undefined]) {
        const response = await post(order.path, body, idempotencyKey);
        expectError(response, 400, { type: 'invalid_request_error', code: 'invalid_json', param: null });
        expect(errorOf(response).message).toBe(
          `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; the limit is ${MAX_JSON_DEPTH}.`,
        );
      }
    },
  );

  it.each(orderCalls.map((c) => [c.route.name, c] as const))(
    `%s: the limit is ${MAX_JSON_DEPTH} levels counting the body itself; one more is refused`,
    async (_, order) => {
      // The body object is level 1, so its delivery may hold MAX_JSON_DEPTH - 1 arrays.
      const deepest = await post(order.path, order.body(nestedArrays(MAX_JSON_DEPTH - 1)), randomUUID());
      expectError(deepest, 400, {
        type: 'invalid_request_error',
        code: 'delivery_invalid',
        param: 'delivery',
      });
      const tooDeep = await post(order.path, order.body(nestedArrays(MAX_JSON_DEPTH)), randomUUID());
      expectError(tooDeep, 400, { type: 'invalid_request_error', code: 'invalid_json', param: null });
    },
  );

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const brackets = `\\"${'[{'.repeat(100)}\\\\`;
    const response = await post(
      orderRoutes.orderDocumentImages.path,
      `{"documents":[{"documentNumber":"${brackets}"}],"delivery":{"method":"web"}}`,
      randomUUID(),
    );
    expectError(response, 400, {
      type: 'invalid_request_error',
      code: 'document_number_invalid',
      param: 'documents[0].documentNumber',
    });
  });
});

/** The envelope of a request refused for its size, with its headers (spec 7.1 and 8). */
function expectTooLarge(response: Awaited<ReturnType<typeof call>>, status: 400, message: string) {
  expectError(response, status, { type: 'invalid_request_error', code: 'request_too_large', param: null });
  expect(errorOf(response).message).toBe(message);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('ratelimit-limit')).toBe('600');
  expect(response.headers.get('ratelimit-remaining')).toBe('600');
  expect(response.headers.get('ratelimit-reset')).toBe('60');
}

describe('request size', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await createKey('test');
  });

  const BODY_MESSAGE = 'The request body is larger than 1048576 bytes (1 MiB), the most this API takes.';
  const HEADERS_MESSAGE =
    'The request line and headers are larger than 10240 bytes (10 KB), the most this API takes. Shorten the URL or the headers.';

  /** A JSON body of exactly `bytes` bytes: valid JSON, with a field no route knows. */
  const bodyOf = (bytes: number) => {
    const empty = JSON.stringify({ pad: '' });
    return JSON.stringify({ pad: 'x'.repeat(bytes - empty.length) });
  };

  it.each([
    ['1 byte over the limit', MAX_BODY_BYTES + 1],
    ['five times the limit', 5 * MAX_BODY_BYTES],
  ])('a body %s is 400 request_too_large with the envelope, key or not', async (_, bytes) => {
    const body = bodyOf(bytes);
    expect(Buffer.byteLength(body)).toBe(bytes);
    for (const secret of [key.secret, null]) {
      const response = await call(orderRoutes.orderDocumentImages.path, {
        key: secret,
        method: 'POST',
        rawBody: body,
      });
      expectTooLarge(response, 400, BODY_MESSAGE);
    }
  });

  it('a body of exactly the limit reaches the route', async () => {
    const response = await call(orderRoutes.orderDocumentImages.path, {
      key: key.secret,
      method: 'POST',
      rawBody: bodyOf(MAX_BODY_BYTES),
    });
    // Past the size check and authentication: the body's first problem is its missing documents.
    expectError(response, 422, {
      type: 'invalid_request_error',
      code: 'validation_error',
      param: 'documents',
    });
  });

  it('the connection stays usable for the next request after a refused body', async () => {
    const refused = await call(orderRoutes.orderDocumentImages.path, {
      key: key.secret,
      method: 'POST',
      rawBody: bodyOf(2 * MAX_BODY_BYTES),
    });
    expect(refused.status).toBe(400);
    const next = await call('/v1/reference/forms?limit=1', { key: key.secret });
    expect(next.status, next.text).toBe(200);
  });

  it.each([
    ['just over the limit', MAX_HEADER_BYTES],
    ["over Node's own 16 KB", 17 * 1024],
  ])('a URL %s is 400 request_too_large with the envelope and X-Request-Id', async (_, length) => {
    const response = await call(`/v1/reference/forms?category=${'a'.repeat(length)}`, { key: key.secret });
    expectTooLarge(response, 400, HEADERS_MESSAGE);
  });

  it('headers over the limit are 400 request_too_large too, and a URL of 9 KB still reaches the route', async () => {
    const headers = await call('/v1/reference/forms', {
      key: key.secret,
      headers: { 'X-Padding': 'p'.repeat(MAX_HEADER_BYTES) },
    });
    expectTooLarge(headers, 400, HEADERS_MESSAGE);
    const long = await call(`/v1/reference/forms?category=${'a'.repeat(9 * 1024)}`, { key: key.secret });
    expectError(long, 422, { type: 'invalid_request_error', code: 'validation_error', param: 'category' });
  });
});

describe('the local error reference', () => {
  it('lists request_too_large with both of its statuses, where its docUrl points', async () => {
    const page = await fetch(`${baseUrl}/docs/errors`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(
      '<tr id="request_too_large"><td><code>request_too_large</code><br>(added by this service)</td><td>400</td><td><code>invalid_request_error</code></td><td>No; fix the request</td>',
    );
    expect(html).toContain(
      '<tr id="invalid_json"><td><code>invalid_json</code><br>(added by this service)</td><td>400</td>',
    );
  });
});
