import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { extractPurchases, heldExtracts, purchaseRecords } from '../../shared/extracts/composition.ts';
import { presentPurchasedExtract } from '../../shared/extracts/lifecycle.ts';
import { purchaseRequestOf } from '../../shared/extracts/purchase-request.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { peopleSearches } from '../../shared/people/composition.ts';
import { presentPersonExtractList, presentStoredPersonExtract } from '../../shared/people/present.ts';
import { purchasePersonExtracts } from '../../shared/people/purchase.ts';
import * as peopleRoutes from '../../shared/people/routes.ts';
import { spendGuard } from '../../shared/spend-caps/composition.ts';

export const createHandler = (ports: RoutePorts<typeof peopleRoutes.purchasePersonExtracts>) =>
  createHttpHandler(
    peopleRoutes.purchasePersonExtracts,
    ports,
    async (input) => {
      const { body } = input;
      const { extracts, billable } = await purchasePersonExtracts({
        body,
        ...purchaseRequestOf(ports, input),
        searches: ports.peopleSearches,
      });
      return presentPersonExtractList(body.searchId, extracts, billable, input.requestId);
    },
    {
      // 100 extracts outgrow an idempotency record: a replay keeps their ids and reads them back.
      replay: {
        pack: (result) => ({
          ids: (result.body.data as { id: string }[]).map((extract) => extract.id),
          billable: result.billable ?? false,
        }),
        async unpack(packed, { body, requestId }) {
          const { ids, billable } = packed as { ids: string[]; billable: boolean };
          const extracts = await Promise.all(
            ids.map((id) => presentPurchasedExtract(ports.heldExtracts, id, presentStoredPersonExtract)),
          );
          return presentPersonExtractList(body.searchId, extracts, billable, requestId);
        },
      },
    },
  );

export const handler = createHandler(
  awsRoutePorts(peopleRoutes.purchasePersonExtracts, {
    heldExtracts,
    extractPurchases,
    purchaseRecords,
    idempotency,
    peopleSearches,
    registryFor,
    spendGuard,
  }),
);
