import { presentCharge } from '../../shared/company/presenters.ts';
import { ApiError } from '../../shared/errors/api-error.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';
import { fromRegistry } from '../../shared/registry/errors.ts';
import { registryFor } from '../../shared/registry/registries.ts';

export const handler = createHttpHandler(
  companyRoutes.getCharge,
  async ({ path, auth, requestId, services }) => {
    if (!/^\d{1,9}$/.test(path.chargeNumber)) {
      throw new ApiError('charge_not_found', {
        param: 'chargeNumber',
        message: 'A charge number is one to nine digits.',
      });
    }
    const registry = registryFor(auth.environment, services);
    const charge = await fromRegistry(
      registry.getCharge(path.chargeNumber, { accountId: auth.accountId, requestId }),
      'chargeNumber',
    );
    return { body: presentCharge(charge) };
  },
);
