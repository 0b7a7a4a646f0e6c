import type { RoutePorts } from '../../shared/app/ports.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { assertReadable, EXTRACT_ID_PATTERN } from '../../shared/extracts/lifecycle.ts';
import { decodeOffset } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { PAGE_SIZE } from '../../shared/kernel/http/schemas.ts';
import { itemsCursorScope, presentWeeklySummary } from '../../shared/weekly-summaries/present.ts';
import { weeklySummaryRoutes } from '../../shared/weekly-summaries/routes.ts';

/** Free: the header (owner, expiry) and one page of items, never the registry. */
export const createHandler = (ports: RoutePorts<typeof weeklySummaryRoutes.getWeeklySummary>) =>
  createHttpHandler(weeklySummaryRoutes.getWeeklySummary, ports, async ({ path, query, auth }) => {
    const notFound = (message: string) => new ApiError('extract_not_found', { param: 'id', message });
    if (!EXTRACT_ID_PATTERN.test(path.id)) throw notFound('Extract ids look like ext_ and 24 hex digits.');
    const header = assertReadable(await ports.heldExtracts.getHeader(path.id), auth, ports.clock.now());
    if (header.kind !== 'weeklySummary')
      throw notFound(`${path.id} is a ${header.kind} extract, not a weekly summary.`);
    const scope = itemsCursorScope(header.id, query.postcode, auth);
    const offset = await decodeOffset(ports.cursors, scope, query.cursor);
    return {
      body: await presentWeeklySummary(ports.heldExtracts, header, {
        postcode: query.postcode,
        offset,
        limit: query.limit ?? PAGE_SIZE.default,
        encodeNext: (next) => ports.cursors.encode(scope, next),
      }),
    };
  });

export const handler = createHandler(awsRoutePorts(weeklySummaryRoutes.getWeeklySummary, { heldExtracts }));
