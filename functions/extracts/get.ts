import { extractRoutes } from '../../shared/app/extract-routes.ts';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { presentStoredExtract } from '../../shared/app/present-extract.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { assertReadable, EXTRACT_ID_PATTERN } from '../../shared/extracts/lifecycle.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import {
  FIRST_PAGE_ITEMS,
  itemsCursorScope,
  presentWeeklySummary,
} from '../../shared/weekly-summaries/present.ts';

export const createHandler = (ports: RoutePorts<typeof extractRoutes.getExtract>) =>
  createHttpHandler(extractRoutes.getExtract, ports, async ({ path, auth }) => {
    if (!EXTRACT_ID_PATTERN.test(path.id)) {
      throw new ApiError('extract_not_found', {
        param: 'id',
        message: 'Extract ids look like ext_ and 24 hex digits.',
      });
    }
    // One query: a weekly summary's items are in a partition of their own, never read whole.
    const stored = await ports.heldExtracts.getExtract(path.id);
    const header = assertReadable(stored?.header, auth, ports.clock.now());
    if (header.kind === 'weeklySummary') {
      // The extract with its first page of items, never the whole list.
      const scope = itemsCursorScope(header.id, undefined, auth);
      return {
        body: await presentWeeklySummary(ports.heldExtracts, header, {
          postcode: undefined,
          offset: 0,
          limit: FIRST_PAGE_ITEMS,
          encodeNext: (next) => ports.cursors.encode(scope, next),
        }),
      };
    }
    return { body: presentStoredExtract(stored as NonNullable<typeof stored>) };
  });

export const handler = createHandler(awsRoutePorts(extractRoutes.getExtract, { heldExtracts }));
