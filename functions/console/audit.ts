import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { keyAdministration } from '../../shared/console/composition.ts';
import { listAudit } from '../../shared/console/members.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.listAudit>) =>
  createHttpHandler(consoleRoutes.listAudit, ports, async ({ auth }) => ({
    body: { object: 'list', data: await listAudit(ports.keyAdministration, auth) },
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.listAudit, { keyAdministration }));
