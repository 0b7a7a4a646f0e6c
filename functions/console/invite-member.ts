import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { mailer } from '../../shared/composition/aws/mailer.ts';
import { consoleMembers } from '../../shared/console/composition.ts';
import { inviteMember } from '../../shared/console/members.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.inviteMember>) =>
  createHttpHandler(consoleRoutes.inviteMember, ports, async ({ auth, body }) => ({
    status: 201,
    body: await inviteMember(
      { store: ports.consoleMembers, mailer: ports.mailer },
      { auth, email: body.email, role: body.role, baseUrl: ports.config.apiBaseUrl, now: ports.clock.now() },
    ),
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.inviteMember, { consoleMembers, mailer }));
