import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { CONSOLE_HEADERS, consolePage } from '../../shared/console/pages.ts';
import { consoleRoutes } from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { serveStatic, staticFile } from '../../shared/kernel/http/static-file.ts';

const html = staticFile(() => new TextEncoder().encode(consolePage()));

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.getConsolePage>) =>
  createHttpHandler(consoleRoutes.getConsolePage, ports, async ({ headers }) => {
    const result = serveStatic(html(), headers, 'text/html; charset=utf-8', 'console.html');
    return { ...result, headers: { ...result.headers, ...CONSOLE_HEADERS } };
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.getConsolePage, {}));
