import { extractRoutes } from '../../shared/app/extract-routes.ts';
import type { HttpPorts } from '../../shared/app/ports.ts';
import { presentHeldExtract } from '../../shared/app/present-extract.ts';
import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { assertReadable, EXTRACT_ID_PATTERN } from '../../shared/extracts/lifecycle.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: HttpPorts<'extracts'>) =>
  createHttpHandler(extractRoutes.getExtract, ports, async ({ path, auth }) => {
    if (!EXTRACT_ID_PATTERN.test(path.id)) {
      throw new ApiError('extract_not_found', {
        param: 'id',
        message: 'Extract ids look like ext_ and 24 hex digits.',
      });
    }
    // One query: a weekly summary's items are in a partition of their own, never read whole.
    const stored = await ports.extracts.getExtract(path.id);
    const header = assertReadable(stored?.header, auth, ports.clock.now());
    const { sections } = stored as NonNullable<typeof stored>;
    const read = { store: ports.extracts, cursors: ports.cursors, owner: auth };
    return { body: await presentHeldExtract({ header, sections }, read) };
  });

export const handler = createHandler(awsHttpPorts({ extracts }));
