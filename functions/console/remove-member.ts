import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { consoleMembers } from '../../shared/console/composition.ts';
import { removeMember } from '../../shared/console/members.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.removeMember>) =>
  createHttpHandler(consoleRoutes.removeMember, ports, async ({ auth, path }) => ({
    body: await removeMember(ports.consoleMembers, { auth, memberId: path.memberId, now: ports.clock.now() }),
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.removeMember, { consoleMembers }));
