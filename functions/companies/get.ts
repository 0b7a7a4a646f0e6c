import { lookupCompany } from '../../shared/company/extracts.ts';
import { parseCompanyIdentifier } from '../../shared/company/identifier.ts';
import { presentCompany } from '../../shared/company/presenters.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

export const createHandler = (ports: HttpPorts<'registryFor'>) =>
  createHttpHandler(companyRoutes.getCompany, ports, async ({ path, auth, requestId }) => {
    const company = parseCompanyIdentifier(path.id);
    const registry = ports.registryFor(auth.environment);
    const found = await lookupCompany(registry, company, { accountId: auth.accountId, requestId });
    return { body: presentCompany(found) };
  });

export const handler = createHandler(awsHttpPorts({ registryFor }));
