import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { passkeyChallenges, relyingParty } from '../../shared/console/composition.ts';
import { passkeyRoutes } from '../../shared/console/passkey-routes.ts';
import { authenticationOptions } from '../../shared/console/passkeys.ts';
import { isSameOriginPost } from '../../shared/console/sign-in.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

/** A sign-in challenge, for the console's own pages only (another site's script gets none). */
export const createHandler = (ports: RoutePorts<typeof passkeyRoutes.passkeySignInOptions>) =>
  createHttpHandler(passkeyRoutes.passkeySignInOptions, ports, async ({ headers }) => {
    if (!isSameOriginPost(headers))
      throw new ApiError('csrf_token_invalid', {
        message: 'Passkey sign-in starts from the console’s own page.',
      });
    return {
      body: await authenticationOptions(ports.passkeyChallenges, {
        relyingParty: relyingParty(ports.config.apiBaseUrl),
        now: ports.clock.now(),
      }),
    };
  });

export const handler = createHandler(
  awsRoutePorts(passkeyRoutes.passkeySignInOptions, { passkeyChallenges }),
);
