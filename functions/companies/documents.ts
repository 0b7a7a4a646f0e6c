import type { RoutePorts } from '../../shared/app/ports.ts';
import { listCompanyDocuments } from '../../shared/companies/documents.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.listCompanyDocuments>) =>
  createHttpHandler(companyRoutes.listCompanyDocuments, ports, async (input) => {
    const { page, extract } = await listCompanyDocuments(ports, input);
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(
  awsRoutePorts(companyRoutes.listCompanyDocuments, { heldExtracts, registryFor }),
);
