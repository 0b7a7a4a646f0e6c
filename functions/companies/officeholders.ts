import type { HttpPorts } from '../../shared/app/ports.ts';
import { listOfficeholders } from '../../shared/companies/officeholders.ts';
import { companyRoutes } from '../../shared/companies/routes.ts';
import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: HttpPorts<'extracts' | 'registryFor'>) =>
  createHttpHandler(companyRoutes.listOfficeholders, ports, async (input) => {
    const { page, extract } = await listOfficeholders(ports, input);
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(awsHttpPorts({ extracts, registryFor }));
