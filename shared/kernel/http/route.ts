import type * as z from 'zod/mini';
import type { ErrorCode } from '../errors/catalogue.ts';
import type { TableId } from '../infra/tables.ts';
import type { ConsoleRole } from '../sessions.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a route's function may do to a table; CDK turns it into a least-privilege grant.
 * `getItem`: single-item reads of known keys only (no queries); `readWrite`: reads and writes that
 * put and update; `readWriteDelete`: those and deleting items (`dynamodb:DeleteItem`), which only
 * the functions that delete get (docs/infrastructure.md lists them).
 */
export type TableAccess = 'getItem' | 'read' | 'readWrite' | 'readWriteDelete';

/**
 * The resources a route's function may use beyond tables (`PortGrant.uses`), by name: `mailer` sends
 * email through SES from the stage's `mailFrom` (console invitations and sign-in links). A
 * capability adds its own by augmenting this interface beside its ports (orders' `queue` and
 * `blobs`, webhooks' `webhookQueue` and `sealer`, monitoring's `monitoringQueue`), and binds them in
 * its `cdk/` module's `routeBindings`.
 */
export interface RouteUses {
  mailer: true;
}

export type RouteUse = keyof RouteUses;

/** The port through which a handler reaches the registry (`registryFor`, shared/app/ports.ts). */
export const REGISTRY_PORT = 'registryFor';

/**
 * Whether a route's handler may call the registry: it declares the registry's port, or a port a
 * capability declares for its own registry calls, which is named `<something>Registry` and granted
 * `registry` (test/unit/route-ports.test.ts holds the name and the grant together).
 */
export const callsRegistry = (route: { readonly ports: readonly string[] }): boolean =>
  route.ports.some((port) => port === REGISTRY_PORT || port.endsWith('Registry'));

export interface RouteDefinition<
  TPath extends z.core.$ZodType = z.core.$ZodType,
  TQuery extends z.core.$ZodType = z.core.$ZodType,
  TBody extends z.core.$ZodType = z.core.$ZodType,
  TResponse extends z.core.$ZodType = z.core.$ZodType,
  TPorts extends readonly string[] = readonly string[],
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
  /**
   * The answer's schema: the contract (OpenAPI), the MCP server's tool outputs and the response
   * check of the local stack and the tests read it. Lambda bundles leave it out (undefined), for
   * only its builder used it there: an entry writes `response: process.env.ROUTE_RESPONSES_OMITTED
   * ? NO_RESPONSE : schema`, and lib/bundling.ts defines that variable, so esbuild drops the
   * schema and never builds it at start (docs/decisions/0119-responses-out-of-lambda.md). The MCP
   * server's tool output schemas are worked out when its function is bundled (lib/bundling.ts).
   */
  readonly response: TResponse;
  readonly status: number;
  /**
   * The route also answers 202 with the same schema (this text says when): an import too large to
   * run within the request.
   */
  readonly accepted?: string;
  /**
   * The route also answers `text/csv` when the request's `Accept` prefers it (this text names the
   * columns): the monitor list.
   */
  readonly csv?: string;
  /** Whether a live-key call can incur a registry fee. */
  readonly billable: boolean;
  /** `meta.product` of a purchase; null for free reads. */
  readonly product: string | null;
  /** Purchase routes honour `Idempotency-Key` (24 hours) and `X-Client-Reference`. */
  readonly idempotent?: boolean;
  /**
   * The capability ports the handler uses, by name (`CapabilityPorts`, shared/app/ports.ts), besides
   * the pipeline's own. The one list of what the route touches: its grants (tables, resources, the
   * registry: shared/app/port-grants.ts), its handler's port type (`RoutePorts<typeof route>`) and
   * its AWS composition (`awsRoutePorts(route, {…})`) derive from it.
   */
  readonly ports: TPorts;
  /**
   * The route only reads, though a port it names also serves routes that write (an order, an
   * endpoint): its table grants stop at `read`.
   */
  readonly readOnly?: boolean;
  /**
   * Tables whose items the route deletes, though the port it names also serves routes that do not
   * (deleting an endpoint or a monitor, opening a console link): they get `readWriteDelete`. A table
   * must be one a port of the route writes.
   */
  readonly deletes?: readonly TableId[];
  /**
   * The route may run as long as API Gateway waits (29 s) though it never calls the registry: a
   * bulk write (the monitor import), or a call waiting for another route (the MCP server).
   */
  readonly longRunning?: boolean;
  /**
   * The error codes this route's own checks and use case can answer with. The OpenAPI generator
   * (shared/app/openapi/) adds the errors every route shares (unauthorized, rate_limited,
   * request_too_large, validation_error, internal_error…), the registry's universal errors for
   * `usesRegistry` routes and `idempotency_conflict` / `idempotency_key_in_use` for `idempotent` ones.
   */
  readonly errors: readonly ErrorCode[];
  /**
   * The console roles whose sessions may call the route (shared/kernel/sessions.ts); a session of
   * another role is refused with `403 console_role_forbidden` before the route's checks. Not
   * declared: admins only, so a new route is closed to members until its entry says otherwise. An
   * API key is no member: this does not apply to it.
   */
  readonly consoleRoles?: readonly ConsoleRole[];
  /** No API key: the pipeline skips authentication and the per-key limits (the API contract and its docs). */
  readonly public?: boolean;
  /** The body may also come from an HTML form (`application/x-www-form-urlencoded`, each field once). */
  readonly formBody?: boolean;
  /** Not an operation of the published contract (the HTML documentation pages and their script). */
  readonly internal?: boolean;
  /**
   * The route signs short-lived tokens other than cursors with the cursor signing secret (an MCP
   * quote's confirmation token): its function reads that secret though it may not paginate.
   */
  readonly signsTokens?: boolean;
  /**
   * Not a tool of the MCP server: a change an agent must not make to its own limits (setting or
   * removing a spend cap).
   */
  readonly notForAgents?: boolean;
  /** Honours `X-Sandbox-Simulate: order_failed` with a test key. */
  readonly sandboxSimulate?: boolean;
  /** Files (relative to the project root) copied next to the deployed bundle, read at run time. */
  readonly assets?: readonly string[];
}

/**
 * What `response` is in a Lambda bundle: nothing (typed as the schema it stands for, which only
 * the contract, the MCP server and the local response check read; none runs in those bundles).
 */
export const NO_RESPONSE = undefined as never;

export const defineRoute = <
  TPath extends z.core.$ZodType,
  TQuery extends z.core.$ZodType,
  TBody extends z.core.$ZodType,
  TResponse extends z.core.$ZodType,
  const TPorts extends readonly string[],
>(
  route: RouteDefinition<TPath, TQuery, TBody, TResponse, TPorts>,
): RouteDefinition<TPath, TQuery, TBody, TResponse, TPorts> => route;

/** What a route's function is granted, derived from its ports (shared/app/port-grants.ts). */
export interface RouteGrants {
  /** Tables the handler touches beyond the keys and limits every route reads and writes. */
  readonly tables: Partial<Record<TableId, TableAccess>>;
  /** Tables the route writes only some items of: its writes there are conditioned to these `pk` prefixes. */
  readonly items: Partial<Record<TableId, readonly string[]>>;
  readonly uses: readonly RouteUse[];
  /** The handler may call the registry (so it needs the registry's settings and secret). */
  readonly usesRegistry: boolean;
}

/** A route with its grants: what CDK, the OpenAPI generator and the local stack read (shared/app/routes.ts). */
export type GrantedRoute = RouteDefinition & RouteGrants;
