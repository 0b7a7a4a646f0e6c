import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { ApiError } from '../../shared/errors/api-error.ts';
import { assertReadable, EXTRACT_ID_PATTERN } from '../../shared/extracts/lifecycle.ts';
import { presentStoredExtract } from '../../shared/extracts/present.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { extractRoutes } from '../../shared/http/routes/extracts.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

export const createHandler = (ports: HttpPorts<'extracts'>) =>
  createHttpHandler(extractRoutes.getExtract, ports, async ({ path, auth }) => {
    if (!EXTRACT_ID_PATTERN.test(path.id)) {
      throw new ApiError('extract_not_found', {
        param: 'id',
        message: 'Extract ids look like ext_ and 24 hex digits.',
      });
    }
    const stored = await ports.extracts.getExtract(path.id);
    assertReadable(stored?.header, auth, ports.clock.now());
    return { body: presentStoredExtract(stored as NonNullable<typeof stored>) };
  });

export const handler = createHandler(awsHttpPorts({ extracts }));
