import type { RoutePorts } from '../../shared/app/ports.ts';
import { presentStoredCompanyExtract, purchaseCompanyExtract } from '../../shared/companies/extracts.ts';
import { parseCompanyIdentifier } from '../../shared/companies/identifier.ts';
import { type CompanyExtractType, companyExtractTypes } from '../../shared/companies/registry-port.ts';
import { companyRoutes } from '../../shared/companies/routes.ts';
import { extractPurchases, heldExtracts, purchaseRecords } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { presentPurchasedExtract } from '../../shared/extracts/lifecycle.ts';
import { purchaseRequestOf } from '../../shared/extracts/purchase-request.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.purchaseCompanyExtract>) =>
  createHttpHandler(
    companyRoutes.purchaseCompanyExtract,
    ports,
    async (input) => {
      const { body } = input;
      if (!(companyExtractTypes as readonly string[]).includes(body.type)) {
        throw new ApiError('extract_type_invalid', {
          param: 'type',
          message: `type must be one of ${companyExtractTypes.join(', ')}.`,
        });
      }
      const company = parseCompanyIdentifier(input.path.id);
      const result = await purchaseCompanyExtract({
        company,
        type: body.type as CompanyExtractType,
        ...purchaseRequestOf(ports, input),
      });
      return { body: result.body, billable: result.billable, product: result.product };
    },
    {
      // A large extract can outgrow an idempotency record: a replay keeps its id and reads it back.
      replay: {
        pack: (result) => ({ id: result.body.id, billable: result.billable, product: result.product }),
        async unpack(packed) {
          const { id, billable, product } = packed as { id: string; billable: boolean; product: string };
          return {
            body: await presentPurchasedExtract(ports.heldExtracts, id, presentStoredCompanyExtract),
            billable,
            product,
          };
        },
      },
    },
  );

export const handler = createHandler(
  awsRoutePorts(companyRoutes.purchaseCompanyExtract, {
    heldExtracts,
    extractPurchases,
    purchaseRecords,
    idempotency,
    registryFor,
  }),
);
