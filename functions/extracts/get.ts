import { extractRoutes } from '../../shared/app/extract-routes.ts';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { presentHeldExtract } from '../../shared/app/present-extract.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { assertReadable, EXTRACT_ID_PATTERN } from '../../shared/extracts/lifecycle.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

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
    const { sections } = stored as NonNullable<typeof stored>;
    const read = { store: ports.heldExtracts, cursors: ports.cursors, owner: auth };
    return { body: await presentHeldExtract({ header, sections }, read) };
  });

export const handler = createHandler(awsRoutePorts(extractRoutes.getExtract, { heldExtracts }));
