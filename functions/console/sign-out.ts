import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { consoleSessions } from '../../shared/console/composition.ts';
import { clearedSessionCookie } from '../../shared/console/pages.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { signOut } from '../../shared/console/sign-in.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { cookieToken, SESSION_COOKIE } from '../../shared/kernel/sessions.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.signOut>) =>
  createHttpHandler(consoleRoutes.signOut, ports, async ({ auth, headers }) => {
    const token = cookieToken(headers.cookie, SESSION_COOKIE);
    if (!auth.session || !token)
      throw new ApiError('unauthorized', { message: 'Only a console session signs out.' });
    await signOut(ports.consoleSessions, {
      token,
      session: auth.session,
      accountId: auth.accountId,
      keyId: auth.keyId,
      now: ports.clock.now(),
    });
    return { body: { object: 'signedOut' }, headers: { 'Set-Cookie': clearedSessionCookie } };
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.signOut, { consoleSessions }));
