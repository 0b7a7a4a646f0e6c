import type { HttpPorts } from '../../shared/app/ports.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { listRegisters } from '../../shared/registers/list.ts';
import { registerRoutes } from '../../shared/registers/routes.ts';

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(registerRoutes.listRegisters, ports, async () => ({ body: listRegisters() }));

export const handler = createHandler(awsHttpPorts({}));
