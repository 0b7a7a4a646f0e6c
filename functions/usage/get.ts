import type { RoutePorts } from '../../shared/app/ports.ts';
import { ledger } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import type { FeeEntry } from '../../shared/extracts/store-port.ts';
import { pageOfArray } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { usageRoutes } from '../../shared/usage/routes.ts';

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

/** Fees grouped by product, fee code and billability, in first-seen order. */
function totalsOf(entries: FeeEntry[]) {
  const totals = new Map<
    string,
    { product: string; feeCode: string | null; billable: boolean; quantity: number; entries: number }
  >();
  for (const entry of entries) {
    const key = `${entry.product}#${entry.feeCode}#${entry.billable}`;
    const total = totals.get(key) ?? {
      product: entry.product,
      feeCode: entry.feeCode,
      billable: entry.billable,
      quantity: 0,
      entries: 0,
    };
    total.quantity += entry.quantity;
    total.entries += 1;
    totals.set(key, total);
  }
  return [...totals.values()];
}

export const createHandler = (ports: RoutePorts<typeof usageRoutes.getUsage>) =>
  createHttpHandler(usageRoutes.getUsage, ports, async ({ query, auth }) => {
    const today = ports.clock.now().toISOString().slice(0, 10);
    const from = query.from ?? `${today.slice(0, 8)}01`;
    const to = query.to ?? today;
    if (from > to)
      throw new ApiError('validation_error', { param: 'from', message: 'from is later than to.' });
    const entries = await ports.ledger.entries(
      auth.accountId,
      auth.environment,
      `${from}T00:00:00.000Z`,
      dayAfter(to),
    );
    const page = await pageOfArray(
      entries,
      pageRequest(ports, usageRoutes.getUsage, auth, query, { from, to }),
    );
    return {
      body: {
        object: 'list',
        ...page,
        data: page.data.map(({ accountId: _a, environment: _e, ...entry }) => ({
          object: 'feeEntry',
          ...entry,
        })),
        from,
        to,
        totals: totalsOf(entries),
      },
    };
  });

export const handler = createHandler(awsRoutePorts(usageRoutes.getUsage, { ledger }));
