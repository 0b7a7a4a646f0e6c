import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { listRegisters } from '../../shared/registers/list.ts';
import { registerRoutes } from '../../shared/registers/routes.ts';

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(registerRoutes.listRegisters, ports, async () => ({ body: listRegisters() }));

export const handler = createHandler(awsHttpPorts({}));
