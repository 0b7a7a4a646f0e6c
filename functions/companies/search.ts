import type { RoutePorts } from '../../shared/app/ports.ts';
import { presentCompanyMatch } from '../../shared/companies/present.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { searchCompanies } from '../../shared/companies/search.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.searchCompanies>) =>
  createHttpHandler(companyRoutes.searchCompanies, ports, async ({ query, auth, requestId }) => {
    const page = await searchCompanies({
      registry: ports.registryFor(auth.environment),
      cursors: ports.cursors,
      owner: auth,
      caller: { accountId: auth.accountId, requestId },
      query,
    });
    return { body: { object: 'list', ...page, data: page.data.map(presentCompanyMatch) } };
  });

export const handler = createHandler(awsRoutePorts(companyRoutes.searchCompanies, { registryFor }));
