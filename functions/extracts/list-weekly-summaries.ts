import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { ApiError } from '../../shared/errors/api-error.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { extractRoutes } from '../../shared/http/routes/extracts.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { isWeeklySummaryType, weeklySummaryTypes } from '../../shared/ports/registry.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

/**
 * The account's unexpired weekly summaries, newest first (like GET /v1/extracts?kind=weeklySummary),
 * narrowed to a type and/or a week. Each entry is the extract without its items; read them with
 * GET /v1/weekly-summaries/{id}.
 */
export const createHandler = (ports: HttpPorts<'extracts'>) =>
  createHttpHandler(extractRoutes.listWeeklySummaries, ports, async ({ query, auth }) => {
    if (query.type !== undefined && !isWeeklySummaryType(query.type)) {
      throw new ApiError('summary_type_invalid', {
        param: 'type',
        message: `type must be one of ${weeklySummaryTypes.join(', ')}.`,
      });
    }
    const filters = { type: query.type, weekStarting: query.weekStarting };
    const scope = { route: extractRoutes.listWeeklySummaries.name, filters, owner: auth };
    const after = await ports.cursors.decode<string>(scope, query.cursor);
    // Subject keys are `<type>#<weekStarting>`.
    const subject = {
      ...(query.type !== undefined ? { prefix: `${query.type}#` } : {}),
      ...(query.weekStarting !== undefined ? { contains: `#${query.weekStarting}` } : {}),
    };
    const page = await ports.extracts.list(auth.accountId, auth.environment, {
      kind: 'weeklySummary',
      limit: query.limit ?? PAGE_SIZE.default,
      ...(after ? { after } : {}),
      now: ports.clock.now().toISOString(),
      subject,
    });
    return {
      body: {
        object: 'list',
        data: page.items.map((item) => item.summary),
        hasMore: page.next !== undefined,
        nextCursor: page.next === undefined ? null : await ports.cursors.encode(scope, page.next),
        totalCount: null,
      },
    };
  });

export const handler = createHandler(awsHttpPorts({ extracts }));
