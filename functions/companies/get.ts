import type { RoutePorts } from '../../shared/app/ports.ts';
import { lookupCompany } from '../../shared/companies/extracts.ts';
import { parseCompanyIdentifier } from '../../shared/companies/identifier.ts';
import { presentCompany } from '../../shared/companies/present.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.getCompany>) =>
  createHttpHandler(companyRoutes.getCompany, ports, async ({ path, auth, requestId }) => {
    const company = parseCompanyIdentifier(path.id);
    const registry = ports.registryFor(auth.environment);
    const found = await lookupCompany(registry, company, { accountId: auth.accountId, requestId });
    return { body: presentCompany(found) };
  });

export const handler = createHandler(awsRoutePorts(companyRoutes.getCompany, { registryFor }));
