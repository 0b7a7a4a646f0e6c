/** What a route's use case is given and gives back, through the pipeline (pipeline.ts). */
import type * as z from 'zod/mini';
import type { ApiKeyRecord } from '../api-keys.ts';
import type { ConsoleRole } from '../sessions.ts';
import type { RouteDefinition } from './route.ts';

export interface AuthContext {
  accountId: string;
  environment: ApiKeyRecord['environment'];
  keyId: string;
  /** Present when the request came with a console session (shared/kernel/sessions.ts) instead of the key. */
  session?: {
    sessionId: string;
    csrfToken: string;
    expiresAt: string;
    /** `admin` for a session opened with a key's link. */
    role: ConsoleRole;
    /** A member's session (then `keyId` is the member's id too). */
    member?: { memberId: string; email: string };
  };
}

export interface HandlerInput<R extends RouteDefinition> {
  path: z.output<R['request']['path']>;
  query: z.output<R['request']['query']>;
  body: [NonNullable<R['request']['body']>] extends [z.core.$ZodType]
    ? z.output<NonNullable<R['request']['body']>>
    : undefined;
  headers: Readonly<Record<string, string>>;
  /** The client's address as the gateway saw it (`requestContext.identity.sourceIp`), if known. */
  sourceIp: string | null;
  auth: AuthContext;
  requestId: string;
  /** Purchase routes: `X-Client-Reference`, checked (at most 30 characters) or null. */
  clientReference: string | null;
  /** Purchase routes with an `Idempotency-Key`: names the purchase across retries. */
  recoveryKey: string | undefined;
}

export interface HandlerResult {
  /** Defaults to the route's status. */
  status?: number;
  /** The resource or list; the pipeline adds `meta`. */
  body: Record<string, unknown>;
  /** True only when this call incurred a registry fee. */
  billable?: boolean;
  /** `meta.product` when it depends on the request (the route's otherwise). */
  product?: string;
  quantity?: number;
  headers?: Record<string, string>;
  /**
   * A file instead of JSON (a PDF download, a documentation page): sent base64-encoded, as API
   * Gateway expects of binary media, with `status` (default 200) and `headers` (which may replace
   * the attachment disposition and the caching).
   */
  file?: { contentType: string; bytes: Uint8Array; filename: string };
}

export type UseCase<R extends RouteDefinition> = (input: HandlerInput<R>) => Promise<HandlerResult>;
