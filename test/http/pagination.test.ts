import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paginates } from '../../lib/routes.ts';
import { EMPTY_CURSOR } from '../../shared/domain/cursor.ts';
import { routeList } from '../../shared/http/routes.ts';
import {
  call,
  clock,
  createKey,
  errorOf,
  expectError,
  type TestKey,
  validationError,
} from '../support/api.ts';

interface FormPage {
  data: { formCode: string }[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number;
}

describe('cursor lifetime', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await createKey('test');
  });
  afterEach(async () => {
    await clock.reset();
  });

  const firstCursor = async () => {
    const first = await call<FormPage>('/v1/reference/forms?limit=5', { key: key.secret });
    expect(first.status).toBe(200);
    expect(first.body.hasMore).toBe(true);
    return first.body.nextCursor as string;
  };

  it('still works 29 minutes after it was issued', async () => {
    const cursor = await firstCursor();
    await clock.advance(29 * 60_000);
    const next = await call<FormPage>(`/v1/reference/forms?limit=5&cursor=${encodeURIComponent(cursor)}`, {
      key: key.secret,
    });
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(5);
  });

  it('is refused 31 minutes after it was issued with 400 validation_error on cursor', async () => {
    const cursor = await firstCursor();
    await clock.advance(31 * 60_000);
    const next = await call(`/v1/reference/forms?limit=5&cursor=${encodeURIComponent(cursor)}`, {
      key: key.secret,
    });
    expect(next.status).toBe(400);
    expect(errorOf(next)).toMatchObject({
      type: 'invalid_request_error',
      code: 'validation_error',
      param: 'cursor',
      message: expect.stringContaining('expired'),
    });
  });

  it('keeps the page size the client asks for on every page, and the limit may change between pages', async () => {
    const cursor = await firstCursor();
    const next = await call<FormPage>(`/v1/reference/forms?limit=3&cursor=${encodeURIComponent(cursor)}`, {
      key: key.secret,
    });
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(3);
  });
});

/** A well-formed value for each path parameter of a paginated route, so only the cursor is wrong. */
const SAMPLE_PATH_VALUES: Record<string, string> = {
  id: '000000019',
  personId: `prs_${'0'.repeat(24)}`,
  searchId: 'srch_0',
  eventId: `evt_${'0'.repeat(24)}`,
  endpointId: `we_${'0'.repeat(24)}`,
  register: 'RQ',
};

/** Required query parameters of a paginated route, well-formed, so only the cursor is wrong. */
const SAMPLE_QUERIES: Record<string, string> = { BrowseRegister: 'browse=SMITH&' };

const samplePath = (template: string) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = SAMPLE_PATH_VALUES[name];
    if (value === undefined) throw new Error(`add a sample value for {${name}} to SAMPLE_PATH_VALUES`);
    return value;
  });

describe('an empty cursor', () => {
  // Every route whose query schema takes a cursor, from the route table: a new one is covered too.
  const paginated = routeList.filter(paginates);
  let key: TestKey;
  beforeAll(async () => {
    key = await createKey('test');
  });

  it('is checked on every paginated route of the table', () => {
    expect(paginated.length).toBeGreaterThanOrEqual(9);
  });

  it.each(paginated.map((route) => [route.name, route] as const))(
    '%s: ?cursor= is 400 validation_error on cursor',
    async (_, route) => {
      const response = await call(`${samplePath(route.path)}?${SAMPLE_QUERIES[route.name] ?? ''}cursor=`, {
        key: key.secret,
        method: route.method,
      });
      expectError(response, 400, validationError('cursor'));
      expect(errorOf(response).message).toBe(EMPTY_CURSOR);
    },
  );
});

describe('a cursor belongs to the account and environment it was issued to', () => {
  let owner: TestKey;
  let sameAccountOtherKey: TestKey;
  let sameAccountLive: TestKey;
  let otherAccount: TestKey;
  beforeAll(async () => {
    owner = await createKey('test');
    sameAccountOtherKey = await createKey('test', { accountId: owner.accountId });
    sameAccountLive = await createKey('live', { accountId: owner.accountId });
    otherAccount = await createKey('test');
  });

  const secondPage = (cursor: string, secret: string) =>
    call<FormPage>(`/v1/reference/forms?limit=5&cursor=${encodeURIComponent(cursor)}`, { key: secret });

  it('is refused, like a tampered cursor, for another account or the other environment', async () => {
    const first = await call<FormPage>('/v1/reference/forms?limit=5', { key: owner.secret });
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const tampered = await secondPage(
      `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`,
      owner.secret,
    );
    expectError(tampered, 400, validationError('cursor'));
    for (const stranger of [otherAccount, sameAccountLive]) {
      const response = await secondPage(cursor, stranger.secret);
      expectError(response, 400, validationError('cursor'));
      expect(errorOf(response).message).toBe(errorOf(tampered).message);
    }
  });

  it('continues for any key of the same account and environment', async () => {
    const first = await call<FormPage>('/v1/reference/forms?limit=5', { key: owner.secret });
    const next = await secondPage(first.body.nextCursor as string, sameAccountOtherKey.secret);
    expect(next.status, next.text).toBe(200);
    expect(next.body.data).toHaveLength(5);
    expect(next.body.data[0]?.formCode).not.toBe(first.body.data[0]?.formCode);
  });
});
