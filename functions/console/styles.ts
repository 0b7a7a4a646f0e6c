import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { CONSOLE_HEADERS } from '../../shared/console/pages.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { CONSOLE_STYLES } from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { readAsset, serveStatic } from '../../shared/kernel/http/static-file.ts';

const file = readAsset(CONSOLE_STYLES);

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.getConsoleStyles>) =>
  createHttpHandler(consoleRoutes.getConsoleStyles, ports, async ({ headers }) => {
    const result = serveStatic(file(), headers, 'text/css; charset=utf-8', 'console.css');
    return { ...result, headers: { ...result.headers, ...CONSOLE_HEADERS } };
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.getConsoleStyles, {}));
