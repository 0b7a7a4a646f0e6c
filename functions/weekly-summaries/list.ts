import type { RoutePorts } from '../../shared/app/ports.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { pageOfStore } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { isWeeklySummaryType, weeklySummaryTypes } from '../../shared/weekly-summaries/registry-port.ts';
import { weeklySummaryRoutes } from '../../shared/weekly-summaries/routes.ts';

/**
 * The account's unexpired weekly summaries, newest first (like GET /v1/extracts?kind=weeklySummary),
 * narrowed to a type and/or a week. Each entry is the extract without its items; read them with
 * GET /v1/weekly-summaries/{id}.
 */
export const createHandler = (ports: RoutePorts<typeof weeklySummaryRoutes.listWeeklySummaries>) =>
  createHttpHandler(weeklySummaryRoutes.listWeeklySummaries, ports, async ({ query, auth }) => {
    if (query.type !== undefined && !isWeeklySummaryType(query.type)) {
      throw new ApiError('summary_type_invalid', {
        param: 'type',
        message: `type must be one of ${weeklySummaryTypes.join(', ')}.`,
      });
    }
    // Subject keys are `<type>#<weekStarting>`.
    const subject = {
      ...(query.type !== undefined ? { prefix: `${query.type}#` } : {}),
      ...(query.weekStarting !== undefined ? { contains: `#${query.weekStarting}` } : {}),
    };
    const page = await pageOfStore(
      pageRequest(ports, weeklySummaryRoutes.listWeeklySummaries, auth, query, {
        type: query.type,
        weekStarting: query.weekStarting,
      }),
      (position) =>
        ports.heldExtracts.list(auth.accountId, auth.environment, {
          kind: 'weeklySummary',
          ...position,
          now: ports.clock.now().toISOString(),
          subject,
        }),
      (item) => item.summary,
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(
  awsRoutePorts(weeklySummaryRoutes.listWeeklySummaries, { heldExtracts }),
);
