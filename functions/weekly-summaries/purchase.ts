import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { extractPurchases, heldExtracts, purchaseRecords } from '../../shared/extracts/composition.ts';
import { purchaseRequestOf } from '../../shared/extracts/purchase-request.ts';
import type { Owner } from '../../shared/kernel/api-keys.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { spendGuard } from '../../shared/spend-caps/composition.ts';
import { presentFirstItemsPage } from '../../shared/weekly-summaries/present.ts';
import { purchaseWeeklySummary } from '../../shared/weekly-summaries/purchase.ts';
import * as weeklySummaryRoutes from '../../shared/weekly-summaries/routes.ts';

export const createHandler = (ports: RoutePorts<typeof weeklySummaryRoutes.purchaseWeeklySummary>) => {
  const firstPage = (id: string, summary: Record<string, unknown>, owner: Owner) =>
    presentFirstItemsPage({ store: ports.heldExtracts, cursors: ports.cursors, owner }, { id, summary });
  return createHttpHandler(
    weeklySummaryRoutes.purchaseWeeklySummary,
    ports,
    async (input) => {
      const { body, auth } = input;
      const bought = await purchaseWeeklySummary({
        type: body.type,
        weekStarting: body.weekStarting,
        refresh: body.refresh ?? false,
        ...purchaseRequestOf(ports, input),
      });
      return { body: await firstPage(bought.id, bought.summary, auth), billable: bought.billable };
    },
    {
      // The items are in the store: a replay keeps the id and reads the first page back.
      replay: {
        pack: (result) => ({ id: result.body.id, billable: result.billable }),
        async unpack(packed, input) {
          const { id, billable } = packed as { id: string; billable: boolean };
          const header = await ports.heldExtracts.getHeader(id);
          if (!header) throw new Error(`weekly summary ${id} of an earlier purchase is missing`);
          return { body: await firstPage(id, header.summary, input.auth), billable };
        },
      },
    },
  );
};

export const handler = createHandler(
  awsRoutePorts(weeklySummaryRoutes.purchaseWeeklySummary, {
    heldExtracts,
    extractPurchases,
    purchaseRecords,
    idempotency,
    registryFor,
    spendGuard,
  }),
);
