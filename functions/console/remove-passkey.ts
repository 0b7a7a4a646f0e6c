import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { passkeys } from '../../shared/console/composition.ts';
import { passkeyRoutes } from '../../shared/console/passkey-routes.ts';
import { removePasskey } from '../../shared/console/passkeys.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof passkeyRoutes.removePasskey>) =>
  createHttpHandler(passkeyRoutes.removePasskey, ports, async ({ auth, path }) => ({
    body: await removePasskey(ports.passkeys, { auth, passkeyId: path.passkeyId, now: ports.clock.now() }),
  }));

export const handler = createHandler(awsRoutePorts(passkeyRoutes.removePasskey, { passkeys }));
