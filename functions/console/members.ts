import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { consoleMembers } from '../../shared/console/composition.ts';
import { listMembers } from '../../shared/console/members.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.listMembers>) =>
  createHttpHandler(consoleRoutes.listMembers, ports, async ({ auth }) => ({
    body: { object: 'list', data: await listMembers(ports.consoleMembers, auth) },
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.listMembers, { consoleMembers }));
