import { lookupCompany } from '../../shared/company/extracts.ts';
import { parseCompanyIdentifier } from '../../shared/company/identifier.ts';
import { presentCompany } from '../../shared/company/presenters.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';
import { registryFor } from '../../shared/registry/registries.ts';

export const handler = createHttpHandler(
  companyRoutes.getCompany,
  async ({ path, auth, requestId, services }) => {
    const company = parseCompanyIdentifier(path.id);
    const registry = registryFor(auth.environment, services);
    const found = await lookupCompany(registry, company, { accountId: auth.accountId, requestId });
    return { body: presentCompany(found) };
  },
);
