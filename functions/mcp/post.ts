import { readFile } from 'node:fs/promises';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import type { RouteDefinition } from '../../shared/kernel/http/route.ts';
import { stagePrices } from '../../shared/kernel/prices.ts';
import * as mcpRoutes from '../../shared/mcp/routes.ts';
import type { ToolCatalogue } from '../../shared/mcp/tools.ts';

type OnRequest = typeof import('../../shared/app/mcp-on-request.ts');

/**
 * The protocol server, the route table and the fees, loaded on the first request. A Lambda bundle
 * reads them from the second file written beside it (lib/bundling.ts defines `MCP_CHUNK`), and its
 * tools from the file written beside it when it was bundled (`MCP_TOOLS_FILE`), so its start
 * compiles and builds neither; elsewhere (the local stack, tests) the modules are imported and the
 * tools derived from the route table on first use.
 */
const onRequest = async (): Promise<OnRequest> =>
  process.env.MCP_CHUNK
    ? (require(`${__dirname}/${process.env.MCP_CHUNK}`) as OnRequest)
    : import('../../shared/app/mcp-on-request.ts');

let catalogue: Promise<ToolCatalogue> | undefined;
const tools = (): Promise<ToolCatalogue> => {
  catalogue ??= process.env.MCP_TOOLS_FILE
    ? readFile(`${__dirname}/${process.env.MCP_TOOLS_FILE}`, 'utf8').then((text) => JSON.parse(text))
    : Promise.all([onRequest(), import('../../shared/mcp/tools.ts')]).then(
        async ([{ loadRouteList }, { catalogueOf, toolsOf }]) => catalogueOf(toolsOf(await loadRouteList())),
      );
  return catalogue;
};

/** The route a tool calls. */
const routeNamed = async (name: string): Promise<RouteDefinition> => {
  const route = (await (await onRequest()).loadRouteList()).find((one) => one.name === name);
  if (!route) throw new Error(`no route ${name} for an MCP tool`);
  return route;
};

export const createHandler = (ports: RoutePorts<typeof mcpRoutes.mcp>) =>
  createHttpHandler(mcpRoutes.mcp, ports, async ({ headers, body, auth }) => {
    const authorization = headers.authorization ?? '';
    const request = new Request(`${ports.config.apiBaseUrl}${mcpRoutes.mcp.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: headers.accept ?? 'application/json, text/event-stream',
        ...(headers['mcp-protocol-version']
          ? { 'mcp-protocol-version': headers['mcp-protocol-version'] }
          : {}),
        ...(headers.origin ? { origin: headers.origin } : {}),
      },
      body: JSON.stringify(body),
    });
    const { answerMcp, feeOf } = await onRequest();
    const response = await answerMcp(
      {
        catalogue: tools,
        routeNamed,
        apiBaseUrl: ports.config.apiBaseUrl,
        authorization,
        keyId: auth.keyId,
        clock: ports.clock,
        cursors: ports.cursors,
        // Test keys are never billed: they quote what the same purchase would cost.
        feeOf: async (route, request) =>
          feeOf(stagePrices(), route, request, {
            at: ports.clock.now().toISOString(),
            billed: auth.environment === 'live',
          }),
      },
      request,
      body,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      status: response.status,
      body: {},
      file: {
        contentType: response.headers.get('content-type') ?? 'application/json',
        bytes,
        filename: 'mcp.json',
      },
      headers: { 'Content-Disposition': 'inline' },
    };
  });

export const handler = createHandler(awsRoutePorts(mcpRoutes.mcp, {}));
