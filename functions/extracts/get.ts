import { ApiError } from '../../shared/errors/api-error.ts';
import { assertReadable, EXTRACT_ID_PATTERN } from '../../shared/extracts/lifecycle.ts';
import { presentStoredExtract } from '../../shared/extracts/present.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { extractRoutes } from '../../shared/http/routes/extracts.ts';
import { extractStore } from '../../shared/stores.ts';

export const handler = createHttpHandler(extractRoutes.getExtract, async ({ path, auth, services }) => {
  if (!EXTRACT_ID_PATTERN.test(path.id)) {
    throw new ApiError('extract_not_found', {
      param: 'id',
      message: 'Extract ids look like ext_ and 24 hex digits.',
    });
  }
  const stored = await extractStore().getExtract(path.id);
  assertReadable(stored?.header, auth, services.clock.now());
  return { body: presentStoredExtract(stored as NonNullable<typeof stored>) };
});
