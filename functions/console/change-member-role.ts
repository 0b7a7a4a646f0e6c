import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { consoleMembers } from '../../shared/console/composition.ts';
import { changeMemberRole } from '../../shared/console/members.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.changeMemberRole>) =>
  createHttpHandler(consoleRoutes.changeMemberRole, ports, async ({ auth, path, body }) => ({
    body: await changeMemberRole(ports.consoleMembers, {
      auth,
      memberId: path.memberId,
      role: body.role,
      now: ports.clock.now(),
    }),
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.changeMemberRole, { consoleMembers }));
