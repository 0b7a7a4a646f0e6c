import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, clock, createKey, errorOf, type TestKey } from '../support/api.ts';

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
