import type { RoutePorts } from '../../shared/app/ports.ts';
import { listCompanyAddresses } from '../../shared/companies/addresses.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.listAddresses>) =>
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

export const handler = createHandler(
  awsRoutePorts(companyRoutes.listAddresses, { heldExtracts, registryFor }),
);
