import '../../shared/companies/errors.ts';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { presentCharge } from '../../shared/companies/present.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { fromRegistry } from '../../shared/kernel/registry-errors.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.getCharge>) =>
  createHttpHandler(companyRoutes.getCharge, ports, async ({ path, auth, requestId }) => {
    if (!/^\d{1,9}$/.test(path.chargeNumber)) {
      throw new ApiError('charge_not_found', {
        param: 'chargeNumber',
        message: 'A charge number is one to nine digits.',
      });
    }
    const registry = ports.registryFor(auth.environment);
    const charge = await fromRegistry(
      registry.getCharge(path.chargeNumber, { accountId: auth.accountId, requestId }),
      'chargeNumber',
    );
    return { body: presentCharge(charge) };
  });

export const handler = createHandler(awsRoutePorts(companyRoutes.getCharge, { registryFor }));
