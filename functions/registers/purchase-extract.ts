import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { extractPurchases, heldExtracts, purchaseRecords } from '../../shared/extracts/composition.ts';
import { oneExtractReplay } from '../../shared/extracts/lifecycle.ts';
import { purchaseRequestOf } from '../../shared/extracts/purchase-request.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { presentStoredRegisterExtract } from '../../shared/registers/present.ts';
import { purchaseRegisterExtract } from '../../shared/registers/purchase.ts';
import * as registerRoutes from '../../shared/registers/routes.ts';
import { spendGuard } from '../../shared/spend-caps/composition.ts';

export const createHandler = (ports: RoutePorts<typeof registerRoutes.purchaseRegisterExtract>) =>
  createHttpHandler(
    registerRoutes.purchaseRegisterExtract,
    ports,
    async (input) => {
      const result = await purchaseRegisterExtract({
        register: input.path.register,
        number: input.path.number,
        history: input.body.history ?? false,
        ...purchaseRequestOf(ports, input),
      });
      return { body: result.body, billable: result.billable, product: result.product };
    },
    { replay: oneExtractReplay(ports, presentStoredRegisterExtract) },
  );

export const handler = createHandler(
  awsRoutePorts(registerRoutes.purchaseRegisterExtract, {
    heldExtracts,
    extractPurchases,
    purchaseRecords,
    idempotency,
    registryFor,
    spendGuard,
  }),
);
