import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { consoleSessions } from '../../shared/console/composition.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createSignInLink } from '../../shared/console/sign-in.ts';
import { bearerToken, hashKey } from '../../shared/kernel/api-keys.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.createConsoleLink>) =>
  createHttpHandler(consoleRoutes.createConsoleLink, ports, async ({ auth, headers }) => {
    // Only a key makes a link: a console session cannot extend itself.
    const secret = bearerToken(headers.authorization);
    if (!secret || auth.session)
      throw new ApiError('unauthorized', {
        message: 'A sign-in link is made with an API key: send Authorization: Bearer <API_KEY>.',
      });
    const link = await createSignInLink(ports.consoleSessions, {
      key: auth,
      keyHash: hashKey(secret),
      baseUrl: ports.config.apiBaseUrl,
      now: ports.clock.now(),
    });
    return { status: 201, body: { object: 'consoleLink', ...link } };
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.createConsoleLink, { consoleSessions }));
