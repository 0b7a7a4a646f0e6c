import * as z from 'zod';

export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

export const metaSchema = z.object({
  billable: z.boolean(),
  product: z.string().nullable(),
  requestId: z.string().startsWith('req_'),
  quantity: z.number().int().optional(),
});

/** No query parameters at all: any parameter is reported by name. */
export const noQuery = z.strictObject({});
export const noPath = z.strictObject({});

export const limitParam = z
  .string()
  .regex(/^\d{1,4}$/, `limit must be an integer from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}`)
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(PAGE_SIZE.min, `limit must be at least ${PAGE_SIZE.min}`)
      .max(PAGE_SIZE.max, `limit must be at most ${PAGE_SIZE.max}`),
  )
  .optional();

/** Any string: a bad cursor, empty ones included, is a 400 on `cursor` from the codec. */
export const cursorParam = z.string().optional();

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({
    object: z.literal('list'),
    data: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
    totalCount: z.number().int().nullable(),
    meta: metaSchema,
  });

export const withMeta = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, meta: metaSchema });
