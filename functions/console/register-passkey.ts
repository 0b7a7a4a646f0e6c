import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { passkeys, relyingParty } from '../../shared/console/composition.ts';
import { passkeyRoutes } from '../../shared/console/passkey-routes.ts';
import { registerPasskey } from '../../shared/console/passkey-verification.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof passkeyRoutes.registerPasskey>) =>
  createHttpHandler(passkeyRoutes.registerPasskey, ports, async ({ auth, body }) => ({
    status: 201,
    body: await registerPasskey(
      { store: ports.passkeys, members: ports.apiKeys },
      {
        auth,
        response: body.response,
        name: body.name,
        relyingParty: relyingParty(ports.config.apiBaseUrl),
        now: ports.clock.now(),
      },
    ),
  }));

export const handler = createHandler(awsRoutePorts(passkeyRoutes.registerPasskey, { passkeys }));
