import type { RoutePorts } from '../../shared/app/ports.ts';
import { listOfficeholders } from '../../shared/companies/officeholders.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.listOfficeholders>) =>
  createHttpHandler(companyRoutes.listOfficeholders, ports, async (input) => {
    const { page, extract } = await listOfficeholders(ports, input);
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(
  awsRoutePorts(companyRoutes.listOfficeholders, { heldExtracts, registryFor }),
);
