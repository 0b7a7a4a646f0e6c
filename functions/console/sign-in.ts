import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { consoleSessions } from '../../shared/console/composition.ts';
import { signInHtml, signInPage, signInProblemHtml } from '../../shared/console/pages.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { checkSignInLink } from '../../shared/console/sign-in.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

/** Opening a link: the page with its sign-in button, or why it cannot sign in. Changes nothing. */
export const createHandler = (ports: RoutePorts<typeof consoleRoutes.openConsoleLink>) =>
  createHttpHandler(consoleRoutes.openConsoleLink, ports, async ({ query }) => {
    const now = ports.clock.now();
    const checked = await checkSignInLink(ports.consoleSessions, {
      token: query.token,
      now,
      credentials: ports.apiKeys,
    });
    if (checked.outcome !== 'ready') return signInProblemHtml(checked.outcome);
    return signInHtml(200, signInPage(checked.link, query.token as string));
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.openConsoleLink, { consoleSessions }));
