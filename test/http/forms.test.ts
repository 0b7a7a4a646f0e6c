import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/app/routes.ts';
import { CursorCodec } from '../../shared/kernel/cursor.ts';
import { type FormCategory, formCategories, formsInCategory } from '../../shared/reference/forms.ts';
import {
  type ApiResponse,
  call,
  createKey,
  expectError,
  type Meta,
  type TestKey,
  validationError,
} from '../support/api.ts';
import { specCommonForms } from '../support/spec.ts';
import { localStack } from '../support/stack.ts';

/**
 * GET /v1/reference/forms (spec document 2, section 4.7; pagination and cursors in document 3,
 * section 8 and 7.7 `validation_error`) over real HTTP.
 */

interface Form {
  object: string;
  formCode: string;
  description: string;
  category: string;
}

interface FormPage {
  object: string;
  data: Form[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number | null;
  meta: Meta;
}

let key: TestKey;
let liveKey: TestKey;

beforeAll(async () => {
  key = await createKey('test');
  liveKey = await createKey('live');
});

const listForms = (query = '', secret: string = key.secret) =>
  call<FormPage>(`/v1/reference/forms${query}`, { key: secret });

const cursorQuery = (cursor: string) => `cursor=${encodeURIComponent(cursor)}`;

/** The forms the schedule holds for a category, as the API should present them. */
const expectedForms = (category: FormCategory): Form[] =>
  formsInCategory(category).map((form) => ({
    object: 'form',
    formCode: form.formCode,
    description: form.description,
    category,
  }));

function expectPage(response: ApiResponse<FormPage>) {
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_./);
  expect(response.body.object).toBe('list');
  expect(response.body.meta).toStrictEqual({ billable: false, product: null, requestId });
  expect(Object.keys(response.body).sort()).toEqual([
    'data',
    'hasMore',
    'meta',
    'nextCursor',
    'object',
    'totalCount',
  ]);
}

/** A cursor problem: 400, not 422 (document 3, section 7.7). */
const expectCursorError = (response: ApiResponse<unknown>) =>
  expectError(response, 400, validationError('cursor'));

/** Follows nextCursor from the first page to the last. */
async function walk(category: FormCategory | undefined, limit: number) {
  const filter = category === undefined ? '' : `category=${category}&`;
  const pages: FormPage[] = [];
  let cursor: string | null = null;
  do {
    const response = await listForms(`?${filter}limit=${limit}${cursor ? `&${cursorQuery(cursor)}` : ''}`);
    expectPage(response);
    pages.push(response.body);
    cursor = response.body.nextCursor;
    expect(pages.length, 'runaway pagination').toBeLessThanOrEqual(100);
  } while (cursor !== null);
  return pages;
}

/** A first-page cursor for a category (with a limit small enough to leave a second page). */
async function firstCursor(category: FormCategory | undefined, limit = 2): Promise<string> {
  const filter = category === undefined ? '' : `category=${category}&`;
  const response = await listForms(`?${filter}limit=${limit}`);
  expectPage(response);
  expect(response.body.hasMore).toBe(true);
  expect(typeof response.body.nextCursor).toBe('string');
  return response.body.nextCursor as string;
}

/** Replaces the character at `index` with another character of the base64url alphabet. */
function tamper(cursor: string, index: number): string {
  const original = cursor[index] as string;
  const replacement = original === 'A' ? 'B' : 'A';
  return `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`;
}

describe('GET /v1/reference/forms: categories', () => {
  it('defaults to category all: the first 20 forms of the schedule, totalCount every form', async () => {
    const response = await listForms();
    expectPage(response);
    const all = expectedForms('all');
    expect(all.length).toBeGreaterThan(20);
    expect(response.body).toStrictEqual({
      object: 'list',
      data: all.slice(0, 20),
      hasMore: true,
      nextCursor: expect.any(String),
      totalCount: all.length,
      meta: response.body.meta,
    });
  });

  it('answers category=all exactly like no category, apart from the cursor and request id', async () => {
    const implicit = await listForms();
    const explicit = await listForms('?category=all');
    expectPage(implicit);
    expectPage(explicit);
    expect(explicit.body.data).toStrictEqual(implicit.body.data);
    expect(explicit.body.totalCount).toBe(implicit.body.totalCount);
    expect(explicit.body.hasMore).toBe(implicit.body.hasMore);
  });

  it.each(formCategories.filter((c) => c !== 'all'))(
    'filters by %s: every item carries the requested category and totalCount is the category size',
    async (category) => {
      const response = await listForms(`?category=${category}&limit=100`);
      expectPage(response);
      const expected = expectedForms(category);
      expect(expected.length).toBeGreaterThan(0);
      expect(response.body).toStrictEqual({
        object: 'list',
        data: expected,
        hasMore: false,
        nextCursor: null,
        totalCount: expected.length,
        meta: response.body.meta,
      });
      for (const form of response.body.data) expect(form.category).toBe(category);
    },
  );

  it('lists 309, 312 and 350 under debt', async () => {
    const response = await listForms('?category=debt');
    expectPage(response);
    const codes = response.body.data.map((form) => form.formCode);
    expect(codes).toEqual(expect.arrayContaining(['309', '312', '350']));
    expect(response.body.totalCount).toBe(formsInCategory('debt').length);
    expect(response.body.data.every((form) => form.category === 'debt')).toBe(true);
  });

  it('shows a form in several categories with the requested category each time', async () => {
    // 505 is both deregistration and debt in the schedule.
    for (const category of ['deregistration', 'debt', 'all'] as const) {
      const response = await listForms(`?category=${category}&limit=100`);
      expectPage(response);
      expect(response.body.data.find((form) => form.formCode === '505')).toStrictEqual({
        object: 'form',
        formCode: '505',
        description: expect.any(String),
        category,
      });
    }
  });

  it('lists every form the spec names as in common use under all', async () => {
    const response = await listForms('?limit=100');
    expectPage(response);
    const codes = response.body.data.map((form) => form.formCode);
    for (const code of specCommonForms) {
      expect(codes).toContain(code);
    }
    for (const form of response.body.data) {
      expect(typeof form.formCode).toBe('string');
      expect(form.description.length, form.formCode).toBeGreaterThan(0);
    }
  });

  it.each([
    ['Debt', 'wrong case'],
    ['loans', 'not a category'],
    ['', 'empty'],
    ['takeovers', 'a prefix of two categories'],
    ['debt,financial', 'a comma list'],
  ])('rejects category=%s (%s) with 422 on category', async (category) => {
    expectError(await listForms(`?category=${category}`), 422, validationError('category'));
  });

  it('rejects a repeated category with 422 on category', async () => {
    expectError(await listForms('?category=debt&category=financial'), 422, validationError('category'));
    expectError(await listForms('?category=debt&category=debt'), 422, validationError('category'));
  });

  it('rejects an unknown query parameter by name', async () => {
    expectError(await listForms('?foo=1'), 422, validationError('foo'));
    expectError(await listForms('?category=debt&page=2'), 422, validationError('page'));
  });
});

describe('GET /v1/reference/forms: limit', () => {
  it('returns exactly limit forms', async () => {
    const one = await listForms('?limit=1');
    expectPage(one);
    expect(one.body.data).toStrictEqual(expectedForms('all').slice(0, 1));
    expect(one.body.hasMore).toBe(true);
    expect(typeof one.body.nextCursor).toBe('string');
  });

  it('allows 100 and then fits the whole schedule on one page', async () => {
    const response = await listForms('?limit=100');
    expectPage(response);
    const all = expectedForms('all');
    expect(all.length).toBeLessThanOrEqual(100);
    expect(response.body.data).toStrictEqual(all);
    expect(response.body.hasMore).toBe(false);
    expect(response.body.nextCursor).toBeNull();
    expect(response.body.totalCount).toBe(all.length);
  });

  it.each([
    ['0', 'below the minimum'],
    ['101', 'above the maximum'],
    ['abc', 'not a number'],
    ['1.5', 'not an integer'],
    ['-1', 'negative'],
    ['', 'empty'],
    ['1e1', 'exponent notation'],
    ['%2010', 'a leading space'],
  ])('rejects limit=%s (%s) with 422 on limit', async (limit) => {
    expectError(await listForms(`?limit=${limit}`), 422, validationError('limit'));
  });

  it('rejects a repeated limit with 422 on limit', async () => {
    expectError(await listForms('?limit=5&limit=6'), 422, validationError('limit'));
  });
});

describe('GET /v1/reference/forms: pagination', () => {
  it.each(formCategories)(
    'walks %s with limit=7, every form exactly once in schedule order',
    async (category) => {
      const pages = await walk(category, 7);
      const expected = expectedForms(category);
      expect(pages).toHaveLength(Math.max(1, Math.ceil(expected.length / 7)));
      expect(pages.flatMap((page) => page.data)).toStrictEqual(expected);
      pages.forEach((page, index) => {
        const last = index === pages.length - 1;
        expect(page.totalCount).toBe(expected.length);
        expect(page.hasMore).toBe(!last);
        if (last) {
          expect(page.nextCursor).toBeNull();
          expect(page.data.length).toBe(expected.length - 7 * index);
        } else {
          expect(typeof page.nextCursor).toBe('string');
          expect(page.data).toHaveLength(7);
        }
      });
    },
  );

  it('walks the default category the same way as category=all', async () => {
    const pages = await walk(undefined, 7);
    expect(pages.flatMap((page) => page.data)).toStrictEqual(expectedForms('all'));
    expect(pages.at(-1)?.hasMore).toBe(false);
    expect(pages.at(-1)?.nextCursor).toBeNull();
  });

  it('accepts a cursor from the default category with category=all, the same filter', async () => {
    const cursor = await firstCursor(undefined, 3);
    const next = await listForms(`?category=all&limit=3&${cursorQuery(cursor)}`);
    expectPage(next);
    expect(next.body.data).toStrictEqual(expectedForms('all').slice(3, 6));
  });

  it('gives the same page each time the same cursor is used', async () => {
    const cursor = await firstCursor('deregistration', 4);
    const first = await listForms(`?category=deregistration&limit=4&${cursorQuery(cursor)}`);
    const again = await listForms(`?category=deregistration&limit=4&${cursorQuery(cursor)}`);
    expectPage(first);
    expectPage(again);
    expect(first.body.data).toStrictEqual(expectedForms('deregistration').slice(4, 8));
    expect(again.body.data).toStrictEqual(first.body.data);
  });

  it('refuses a cursor when the category changes between pages', async () => {
    const cursor = await firstCursor('debt');
    expectCursorError(await listForms(`?category=financial&limit=2&${cursorQuery(cursor)}`));
    expectCursorError(await listForms(`?category=all&limit=2&${cursorQuery(cursor)}`));
    expectCursorError(await listForms(`?limit=2&${cursorQuery(cursor)}`));
  });

  it('refuses a cursor from the default category used with a specific category', async () => {
    const cursor = await firstCursor(undefined);
    expectCursorError(await listForms(`?category=deregistration&limit=2&${cursorQuery(cursor)}`));
  });

  it('refuses a cursor with any one character of the payload or signature changed', async () => {
    const cursor = await firstCursor('internal-administration');
    const dot = cursor.indexOf('.');
    expect(dot).toBeGreaterThan(0);
    for (const index of [0, Math.floor(dot / 2), dot - 1, dot + 1, Math.floor((dot + cursor.length) / 2)]) {
      const tampered = tamper(cursor, index);
      expect(tampered).not.toBe(cursor);
      expectCursorError(
        await listForms(`?category=internal-administration&limit=2&${cursorQuery(tampered)}`),
      );
    }
    // The untouched cursor still works, so the refusals above are about the changed character.
    const genuine = await listForms(`?category=internal-administration&limit=2&${cursorQuery(cursor)}`);
    expectPage(genuine);
    expect(genuine.body.data).toStrictEqual(expectedForms('internal-administration').slice(2, 4));
  });

  it('refuses a cursor cut short or lengthened', async () => {
    const cursor = await firstCursor('all');
    expectCursorError(await listForms(`?${cursorQuery(cursor.slice(0, -1))}`));
    expectCursorError(await listForms(`?${cursorQuery(`${cursor}A`)}`));
    expectCursorError(await listForms(`?${cursorQuery(`${cursor}.A`)}`));
    expectCursorError(await listForms(`?${cursorQuery(cursor.split('.')[0] as string)}`));
  });

  it.each([
    ['abc', 'garbage'],
    ['abc.def', 'garbage with a dot'],
    ['a.b.c', 'three parts'],
    ['.', 'a lone dot'],
    ['eyJyIjoiTGlzdEZvcm1zIiwiZiI6IngiLCJ0IjowLCJwIjo1fQ.c2lnbmF0dXJl', 'an unsigned hand-made payload'],
  ])('refuses cursor=%s (%s) with 400 on cursor', async (cursor) => {
    expectCursorError(await listForms(`?${cursorQuery(cursor)}`));
  });

  describe('cursors signed with the service secret', () => {
    // The local stack hands its cursor secret to the test process; a cursor minted here is
    // therefore authentic, so only the route, filter or position check can refuse it.
    let codec: CursorCodec;
    const formsScope = (owner: TestKey) => ({
      route: routes.listForms.name,
      filters: { category: 'debt' },
      owner,
    });

    beforeAll(async () => {
      const secret = localStack.cursorSecret;
      expect(secret, 'the local stack provides its cursor secret').toBeTruthy();
      const clockResponse = await call<{ now: string }>('/__local/clock');
      const offset = new Date(clockResponse.body.now).getTime() - Date.now();
      codec = new CursorCodec(() => Promise.resolve(secret as string), {
        now: () => new Date(Date.now() + offset),
      });
    });

    it('accepts a minted cursor for this list (control for the tests below)', async () => {
      const cursor = await codec.encode(formsScope(key), 1);
      const response = await listForms(`?category=debt&${cursorQuery(cursor)}`);
      expectPage(response);
      expect(response.body.data).toStrictEqual(expectedForms('debt').slice(1));
    });

    it('refuses a cursor issued for another list', async () => {
      const cursor = await codec.encode({ ...formsScope(key), route: routes.listCodeTables.name }, 1);
      expectCursorError(await listForms(`?category=debt&${cursorQuery(cursor)}`));
    });

    it.each([
      [-1, 'a negative offset'],
      [1.5, 'a fractional offset'],
      ['1', 'an offset that is not a number'],
    ] as [unknown, string][])('refuses a cursor positioned at %j (%s)', async (position) => {
      const cursor = await codec.encode(formsScope(key), position);
      expectCursorError(await listForms(`?category=debt&${cursorQuery(cursor)}`));
    });
  });
});

describe('GET /v1/reference/forms: authentication and environments', () => {
  it('refuses a request without Authorization with 401 unauthorized', async () => {
    expectError(await call('/v1/reference/forms'), 401, {
      type: 'authentication_error',
      code: 'unauthorized',
      param: null,
    });
  });

  it('answers test and live keys with the same forms', async () => {
    const sandbox = await listForms('?category=takeovers-all');
    const live = await listForms('?category=takeovers-all', liveKey.secret);
    expectPage(sandbox);
    expectPage(live);
    const { meta: _sandboxMeta, ...sandboxRest } = sandbox.body;
    const { meta: _liveMeta, ...liveRest } = live.body;
    expect(liveRest).toStrictEqual(sandboxRest);
  });

  it('sends the rate limit headers on a page and on a cursor error', async () => {
    for (const response of [await listForms(), await listForms('?cursor=abc')]) {
      expect(response.headers.get('ratelimit-limit')).toBe('600');
      expect(response.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
      expect(response.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    }
  });
});
