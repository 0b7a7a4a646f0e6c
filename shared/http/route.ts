import type * as z from 'zod/mini';
import type { TableId } from '../infra/tables.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route's function may do to a table; CDK turns it into a least-privilege grant. */
export type TableAccess = 'read' | 'readWrite';

export interface RouteDefinition<
  TPath extends z.core.$ZodType = z.core.$ZodType,
  TQuery extends z.core.$ZodType = z.core.$ZodType,
  TBody extends z.core.$ZodType = z.core.$ZodType,
  TResponse extends z.core.$ZodType = z.core.$ZodType,
> {
  /** Unique, PascalCase: names the Lambda function and the OpenAPI operation. */
  readonly name: string;
  readonly method: HttpMethod;
  /** API Gateway style path template, for example `/v1/identifiers/{value}`. */
  readonly path: string;
  /** Module under `functions/` (without `.ts`) exporting `handler`. */
  readonly handler: string;
  readonly summary: string;
  readonly request: {
    readonly path: TPath;
    readonly query: TQuery;
    readonly body?: TBody;
  };
  readonly response: TResponse;
  readonly status: number;
  /** Whether a live-key call can incur a registry fee. */
  readonly billable: boolean;
  /** `meta.product` of a purchase; null for free reads. */
  readonly product: string | null;
  /** Purchase routes honour `Idempotency-Key` (24 hours) and `X-Client-Reference`. */
  readonly idempotent?: boolean;
  /** Whether the handler may call the registry (so it needs the registry's settings and secret). */
  readonly usesRegistry?: boolean;
  /** Tables the handler touches beyond the keys and limits every route reads and writes. */
  readonly tables: Partial<Record<TableId, TableAccess>>;
  /**
   * Fulfilment resources the handler uses: `queue` sends accepted orders to the fulfilment queue,
   * `blobs` reads compiled PDFs and offline search results, `webhookQueue` sends to the webhook
   * dispatcher's queue, `sealer` seals webhook signing secrets (KMS).
   */
  readonly uses?: readonly ('queue' | 'blobs' | 'webhookQueue' | 'sealer')[];
}

export const defineRoute = <
  TPath extends z.core.$ZodType,
  TQuery extends z.core.$ZodType,
  TBody extends z.core.$ZodType,
  TResponse extends z.core.$ZodType,
>(
  route: RouteDefinition<TPath, TQuery, TBody, TResponse>,
): RouteDefinition<TPath, TQuery, TBody, TResponse> => route;
