import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routes } from '../../shared/http/routes.ts';
import { calendarDate, isUtcTimestamp, utcTimestamp } from '../../shared/kernel/time-params.ts';

describe('dates and times read from a client', () => {
  it.each([
    '2026-02-31T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-01-01T23:59:60Z',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-01-01T00:00:00.000Z',
    '2026-01-01T00:00:00+00:00',
    '2026-01-01 00:00:00Z',
  ])('refuses the time %s', (value) => {
    expect(isUtcTimestamp(value)).toBe(false);
    expect(z.safeParse(utcTimestamp('since'), value).success).toBe(false);
  });

  it.each(['2024-02-29T23:59:59Z', '2026-01-01T00:00:00Z', '2026-12-31T12:30:45Z'])(
    'reads the time %s',
    (value) => {
      expect(z.safeParse(utcTimestamp('since'), value)).toStrictEqual({ success: true, data: value });
    },
  );

  it.each(['2026-02-31', '2025-02-29', '2026-04-31', '2026-13-01', '2026-1-01'])(
    'refuses the date %s',
    (value) => {
      expect(z.safeParse(calendarDate('from'), value).success).toBe(false);
    },
  );
});

describe('every date and time parameter of the API', () => {
  const impossible: Record<string, string> = { date: '2026-02-31', time: '2026-01-01T24:00:00Z' };
  /** Parameters whose name says they hold a date or a time. */
  const timeLike = /^(since|until|from|to|.*(Date|At|From|To|Starting))$/;
  /** Checked after parsing, with the same calendar test, because the spec gives it its own code (400 week_start_invalid). */
  const ownCode = new Set(['purchaseWeeklySummary.weekStarting']);
  const cases = Object.entries(routes).flatMap(([name, route]) =>
    (['query', 'body'] as const).flatMap((part) => {
      const schema = (route.request as Record<string, unknown>)[part] as
        | { _zod: { def: { shape?: Record<string, unknown> } } }
        | undefined;
      const shape = schema?._zod.def.shape ?? {};
      return Object.keys(shape)
        .filter((param) => timeLike.test(param) && !ownCode.has(`${name}.${param}`))
        .map((param) => ({ name, part, param, schema }));
    }),
  );

  it('finds them in the route table', () => {
    expect(cases.map(({ name, param }) => `${name}.${param}`)).toEqual(
      expect.arrayContaining([
        'recoverWebhookEndpoint.since',
        'listCompanyDocuments.from',
        'searchPeople.birthDateTo',
        'getUsage.to',
        'listWeeklySummaries.weekStarting',
      ]),
    );
  });

  it.each(cases)('$name refuses impossible values of $param', ({ param, schema }) => {
    for (const value of Object.values(impossible)) {
      const parsed = z.safeParse(schema as z.core.$ZodType, { [param]: value });
      const paths = parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
      expect(paths, `${param}=${value}`).toContain(param);
    }
  });
});
