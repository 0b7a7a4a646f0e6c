import type { HttpPorts } from '../../shared/app/ports.ts';
import { listCompanyAddresses } from '../../shared/companies/addresses.ts';
import { companyRoutes } from '../../shared/companies/routes.ts';
import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: HttpPorts<'extracts' | 'registryFor'>) =>
  createHttpHandler(companyRoutes.listAddresses, ports, async (input) => {
    const { matching, extract, contactAddress } = await listCompanyAddresses(ports, input);
    return {
      body: {
        object: 'list',
        data: matching,
        hasMore: false,
        nextCursor: null,
        totalCount: matching.length,
        extract,
        contactAddress,
      },
    };
  });

export const handler = createHandler(awsHttpPorts({ extracts, registryFor }));
