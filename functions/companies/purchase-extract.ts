import type { RoutePorts } from '../../shared/app/ports.ts';
import {
  checkCompanyExtractType,
  presentStoredCompanyExtract,
  purchaseCompanyExtract,
} from '../../shared/companies/extracts.ts';
import { parseCompanyIdentifier } from '../../shared/companies/identifier.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { extractPurchases, heldExtracts, purchaseRecords } from '../../shared/extracts/composition.ts';
import { oneExtractReplay } from '../../shared/extracts/lifecycle.ts';
import { purchaseRequestOf } from '../../shared/extracts/purchase-request.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { spendGuard } from '../../shared/spend-caps/composition.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.purchaseCompanyExtract>) =>
  createHttpHandler(
    companyRoutes.purchaseCompanyExtract,
    ports,
    async (input) => {
      const { body } = input;
      const type = checkCompanyExtractType(body.type);
      const company = parseCompanyIdentifier(input.path.id);
      const result = await purchaseCompanyExtract({
        company,
        type,
        ...purchaseRequestOf(ports, input),
      });
      return { body: result.body, billable: result.billable, product: result.product };
    },
    { replay: oneExtractReplay(ports, presentStoredCompanyExtract) },
  );

export const handler = createHandler(
  awsRoutePorts(companyRoutes.purchaseCompanyExtract, {
    heldExtracts,
    extractPurchases,
    purchaseRecords,
    idempotency,
    registryFor,
    spendGuard,
  }),
);
