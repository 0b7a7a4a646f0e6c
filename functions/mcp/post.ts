import type { RoutePorts } from '../../shared/app/ports.ts';
import { routeList } from '../../shared/app/routes.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { stagePrices } from '../../shared/kernel/prices.ts';
import { feeOf } from '../../shared/mcp/fees.ts';
import * as mcpRoutes from '../../shared/mcp/routes.ts';
import { answerMcp } from '../../shared/mcp/server.ts';
import { toolsOf } from '../../shared/mcp/tools.ts';

const tools = toolsOf(routeList);

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
    const response = await answerMcp(
      {
        tools,
        apiBaseUrl: ports.config.apiBaseUrl,
        authorization,
        keyId: auth.keyId,
        clock: ports.clock,
        cursors: ports.cursors,
        // Test keys are never billed: they quote what the same purchase would cost.
        feeOf: (route, request) =>
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
