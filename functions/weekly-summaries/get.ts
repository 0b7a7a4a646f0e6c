import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { readWeeklySummary } from '../../shared/weekly-summaries/read.ts';
import * as weeklySummaryRoutes from '../../shared/weekly-summaries/routes.ts';

/** Free: the header (owner, expiry) and one page of items, never the registry. */
export const createHandler = (ports: RoutePorts<typeof weeklySummaryRoutes.getWeeklySummary>) =>
  createHttpHandler(weeklySummaryRoutes.getWeeklySummary, ports, async ({ path, query, auth }) => {
    const reads = { store: ports.heldExtracts, cursors: ports.cursors, owner: auth, now: ports.clock.now() };
    return { body: await readWeeklySummary(reads, path.id, query) };
  });

export const handler = createHandler(awsRoutePorts(weeklySummaryRoutes.getWeeklySummary, { heldExtracts }));
