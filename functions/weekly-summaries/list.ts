import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { listWeeklySummaries } from '../../shared/weekly-summaries/list.ts';
import * as weeklySummaryRoutes from '../../shared/weekly-summaries/routes.ts';

/**
 * The account's unexpired weekly summaries, newest first (like GET /v1/extracts?kind=weeklySummary),
 * narrowed to a type and/or a week. Each entry is the extract without its items; read them with
 * GET /v1/weekly-summaries/{id}.
 */
export const createHandler = (ports: RoutePorts<typeof weeklySummaryRoutes.listWeeklySummaries>) =>
  createHttpHandler(weeklySummaryRoutes.listWeeklySummaries, ports, async ({ query, auth }) => {
    const reads = { store: ports.heldExtracts, cursors: ports.cursors, owner: auth, now: ports.clock.now() };
    return { body: { object: 'list', ...(await listWeeklySummaries(reads, query)) } };
  });

export const handler = createHandler(
  awsRoutePorts(weeklySummaryRoutes.listWeeklySummaries, { heldExtracts }),
);
