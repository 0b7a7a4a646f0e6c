import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { consoleSessions } from '../../shared/console/composition.ts';
import { sessionCookie, signInHtml, signInProblemHtml } from '../../shared/console/pages.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { isSameOriginPost, openSignInLink } from '../../shared/console/sign-in.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

/** The link page's button: opens the session and sends the browser on to the console. */
export const createHandler = (ports: RoutePorts<typeof consoleRoutes.signInWithConsoleLink>) =>
  createHttpHandler(consoleRoutes.signInWithConsoleLink, ports, async ({ query, headers }) => {
    if (!isSameOriginPost(headers)) return signInProblemHtml('cross-site');
    const now = ports.clock.now();
    const result = await openSignInLink(ports.consoleSessions, {
      token: query.token,
      now,
      credentials: ports.apiKeys,
    });
    if (result.outcome !== 'signed-in') return signInProblemHtml(result.outcome);
    // Relative to /console/sign-in: the console page, under any stage prefix.
    return signInHtml(
      303,
      '<!doctype html><title>Signed in</title><a href="../console">Continue to the console</a>',
      { Location: '../console', 'Set-Cookie': sessionCookie(result.token) },
    );
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.signInWithConsoleLink, { consoleSessions }));
