/**
 * What the MCP function loads on its first request (functions/mcp/post.ts): the protocol server
 * (the MCP SDK) and the fees its quotes answer, and the route table on the first tool call. A
 * Lambda bundle carries them as a file of their own beside the handler (lib/bundling.ts,
 * `MCP_CHUNK`), so the function's start neither compiles nor runs them.
 */
import type { GrantedRoute } from '../kernel/http/route.ts';

export { feeOf } from '../mcp/fees.ts';
export { answerMcp } from '../mcp/server.ts';

/** Every route (routes.ts), built on the first tool call: `initialize` and the lists need none. */
export const loadRouteList = async (): Promise<readonly GrantedRoute[]> =>
  (await import('./routes.ts')).routeList;
