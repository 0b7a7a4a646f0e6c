import type { RoutePorts } from '../../shared/app/ports.ts';
import { consoleSessions } from '../../shared/composition/aws/console.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { CONSOLE_HEADERS, sessionCookie, signInProblemPage } from '../../shared/console/pages.ts';
import { consoleRoutes } from '../../shared/console/routes.ts';
import { openSignInLink } from '../../shared/console/sign-in.ts';
import { isKeyUsable } from '../../shared/kernel/api-keys.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

const html = (text: string) => ({
  contentType: 'text/html; charset=utf-8',
  bytes: new TextEncoder().encode(text),
  filename: 'sign-in.html',
});
const common = { ...CONSOLE_HEADERS, 'Cache-Control': 'no-store', 'Content-Disposition': 'inline' };

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.openConsoleLink>) =>
  createHttpHandler(consoleRoutes.openConsoleLink, ports, async ({ query }) => {
    const now = ports.clock.now();
    const result = await openSignInLink(ports.consoleSessions, {
      token: query.token,
      now,
      keyUsable: async (keyHash) => {
        const key = await ports.apiKeys.findByHash(keyHash);
        return key !== undefined && isKeyUsable(key, now);
      },
    });
    if (result.outcome !== 'signed-in') {
      // 410 for a link that worked once (used, expired); 404 for one that never will.
      const status = result.outcome === 'invalid' ? 404 : 410;
      return { status, body: {}, file: html(signInProblemPage(result.outcome)), headers: common };
    }
    return {
      status: 303,
      body: {},
      file: html('<!doctype html><title>Signed in</title><a href="../console">Continue to the console</a>'),
      // Relative to /console/sign-in: the console page, under any stage prefix.
      headers: { ...common, Location: '../console', 'Set-Cookie': sessionCookie(result.token) },
    };
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.openConsoleLink, { consoleSessions }));
