/** The MCP server: one keyed route speaking JSON-RPC (Streamable HTTP, stateless, JSON answers). */
import * as z from 'zod/mini';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';

export const MCP_PATH = '/mcp';

export const mcp = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'Mcp',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: MCP_PATH,
    handler: 'mcp/post',
    summary: 'The MCP server: every route as a tool, paid tools in two steps (docs/mcp.md)',
    request: { path: noPath, query: noQuery, body: z.unknown() },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : z.unknown(),
    status: 200,
    billable: false,
    product: null,
    ports: [],
    // A tool call waits for the route it runs, which may wait for the registry.
    longRunning: true,
    // Quote tokens are signed with the cursor secret (quotes.ts).
    signsTokens: true,
    // JSON-RPC, not an operation of the REST contract.
    internal: true,
    errors: [],
  }),
);

/** The area's routes, by name. */
export const mcpRoutes = {
  mcp,
} as const;
