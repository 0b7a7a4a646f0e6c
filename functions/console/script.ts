import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { CONSOLE_HEADERS } from '../../shared/console/pages.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { CONSOLE_SCRIPT } from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { readAsset, serveStatic } from '../../shared/kernel/http/static-file.ts';

const file = readAsset(CONSOLE_SCRIPT);

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.getConsoleScript>) =>
  createHttpHandler(consoleRoutes.getConsoleScript, ports, async ({ headers }) => {
    const result = serveStatic(file(), headers, 'text/javascript; charset=utf-8', 'console.js');
    return { ...result, headers: { ...result.headers, ...CONSOLE_HEADERS } };
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.getConsoleScript, {}));
