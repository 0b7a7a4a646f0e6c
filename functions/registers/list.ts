import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { listRegisters } from '../../shared/registers/list.ts';
import * as registerRoutes from '../../shared/registers/routes.ts';

export const createHandler = (ports: RoutePorts<typeof registerRoutes.listRegisters>) =>
  createHttpHandler(registerRoutes.listRegisters, ports, async () => ({ body: listRegisters() }));

export const handler = createHandler(awsRoutePorts(registerRoutes.listRegisters, {}));
