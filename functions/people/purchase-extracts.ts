import { personExtractProduct } from '../../shared/domain/products.ts';
import { presentPurchasedExtract } from '../../shared/extracts/present.ts';
import { runIdempotently } from '../../shared/http/idempotency.ts';
import { createHttpHandler, type HandlerResult } from '../../shared/http/pipeline.ts';
import { peopleRoutes } from '../../shared/http/routes/people.ts';
import { purchasePersonExtracts } from '../../shared/people/purchase.ts';
import { registryFor } from '../../shared/registry/registries.ts';
import { extractStore, peopleSearchStore } from '../../shared/stores.ts';

/** The response: one extract per person in the order asked, each with the shared meta. */
function listOf(
  searchId: string,
  extracts: Record<string, unknown>[],
  billable: boolean,
  requestId: string,
): HandlerResult {
  const meta = { billable, product: personExtractProduct.product, requestId };
  return {
    body: {
      object: 'list',
      searchId,
      data: extracts.map((extract) => ({ ...extract, meta })),
      hasMore: false,
      nextCursor: null,
      totalCount: extracts.length,
    },
    billable,
    quantity: extracts.length,
  };
}

export const handler = createHttpHandler(
  peopleRoutes.purchasePersonExtracts,
  async (input) => {
    const { body, auth, services } = input;
    const { extracts, billable } = await purchasePersonExtracts({
      body,
      owner: auth,
      requestId: input.requestId,
      clientReference: input.clientReference,
      recoveryKey: input.recoveryKey,
      now: services.clock.now(),
      registry: registryFor(auth.environment, services),
      store: extractStore(),
      searches: peopleSearchStore(),
    });
    return listOf(body.searchId, extracts, billable, input.requestId);
  },
  {
    idempotency: runIdempotently,
    // 100 extracts outgrow an idempotency record: a replay keeps their ids and reads them back.
    replay: {
      pack: (result) => ({
        ids: (result.body.data as { id: string }[]).map((extract) => extract.id),
        billable: result.billable ?? false,
      }),
      async unpack(packed, { body, requestId }) {
        const { ids, billable } = packed as { ids: string[]; billable: boolean };
        const extracts = await Promise.all(ids.map((id) => presentPurchasedExtract(extractStore(), id)));
        return listOf(body.searchId, extracts, billable, requestId);
      },
    },
  },
);
