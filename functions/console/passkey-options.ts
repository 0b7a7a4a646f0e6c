import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { passkeyChallenges, relyingParty } from '../../shared/console/composition.ts';
import { passkeyRoutes } from '../../shared/console/passkey-routes.ts';
import { registrationOptions } from '../../shared/console/passkeys.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof passkeyRoutes.passkeyRegistrationOptions>) =>
  createHttpHandler(passkeyRoutes.passkeyRegistrationOptions, ports, async ({ auth }) => ({
    body: await registrationOptions(ports.passkeyChallenges, {
      auth,
      relyingParty: relyingParty(ports.config.apiBaseUrl),
      now: ports.clock.now(),
    }),
  }));

export const handler = createHandler(
  awsRoutePorts(passkeyRoutes.passkeyRegistrationOptions, { passkeyChallenges }),
);
