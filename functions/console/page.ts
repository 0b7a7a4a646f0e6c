import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { CONSOLE_HEADERS, consolePage } from '../../shared/console/pages.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { serveStatic, staticFile } from '../../shared/kernel/http/static-file.ts';
import { cookieToken, edgeTokenOf, SESSION_COOKIE } from '../../shared/kernel/sessions.ts';

const html = staticFile(() => new TextEncoder().encode(consolePage()));

/**
 * The page, cached like a static file; with a session cookie, the page carrying that session's edge
 * token instead, never cached (the authorizer checks the token; nothing is read here).
 */
export const createHandler = (ports: RoutePorts<typeof consoleRoutes.getConsolePage>) =>
  createHttpHandler(consoleRoutes.getConsolePage, ports, async ({ headers }) => {
    const token = cookieToken(headers.cookie, SESSION_COOKIE);
    if (token) {
      return {
        body: {},
        file: {
          contentType: 'text/html; charset=utf-8',
          bytes: new TextEncoder().encode(consolePage(edgeTokenOf(token))),
          filename: 'console.html',
        },
        headers: { ...CONSOLE_HEADERS, 'Cache-Control': 'no-store', 'Content-Disposition': 'inline' },
      };
    }
    const result = serveStatic(html(), headers, 'text/html; charset=utf-8', 'console.html');
    return { ...result, headers: { ...result.headers, ...CONSOLE_HEADERS } };
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.getConsolePage, {}));
