import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { passkeys } from '../../shared/console/composition.ts';
import { passkeyRoutes } from '../../shared/console/passkey-routes.ts';
import { listPasskeys } from '../../shared/console/passkeys.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof passkeyRoutes.listPasskeys>) =>
  createHttpHandler(passkeyRoutes.listPasskeys, ports, async ({ auth }) => ({
    body: { object: 'list', data: await listPasskeys(ports.passkeys, auth) },
  }));

export const handler = createHandler(awsRoutePorts(passkeyRoutes.listPasskeys, { passkeys }));
