import { purchaseCompanyExtract } from '../../shared/company/extracts.ts';
import { parseCompanyIdentifier } from '../../shared/company/identifier.ts';
import { ApiError } from '../../shared/errors/api-error.ts';
import { presentPurchasedExtract } from '../../shared/extracts/present.ts';
import { runIdempotently } from '../../shared/http/idempotency.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';
import { type CompanyExtractType, companyExtractTypes } from '../../shared/ports/registry.ts';
import { registryFor } from '../../shared/registry/registries.ts';
import { extractStore } from '../../shared/stores.ts';

export const handler = createHttpHandler(
  companyRoutes.purchaseCompanyExtract,
  async (input) => {
    const { body, auth, services } = input;
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
      owner: auth,
      requestId: input.requestId,
      clientReference: input.clientReference,
      recoveryKey: input.recoveryKey,
      now: services.clock.now(),
      registry: registryFor(auth.environment, services),
      store: extractStore(),
    });
    return { body: result.body, billable: result.billable, product: result.product };
  },
  {
    idempotency: runIdempotently,
    // A large extract can outgrow an idempotency record: a replay keeps its id and reads it back.
    replay: {
      pack: (result) => ({ id: result.body.id, billable: result.billable, product: result.product }),
      async unpack(packed) {
        const { id, billable, product } = packed as { id: string; billable: boolean; product: string };
        return { body: await presentPurchasedExtract(extractStore(), id), billable, product };
      },
    },
  },
);
