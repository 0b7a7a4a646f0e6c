/**
 * Requests too large or too deep for the service: deeply nested JSON bodies, bodies over the
 * body limit, and URLs over the header limit, all answered with the error envelope.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../shared/http/request.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { call, createKey, errorOf, expectError, type TestKey } from '../support/api.ts';

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
