import { checkIdentifier } from '../../shared/domain/identifiers.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';

export const handler = createHttpHandler(referenceRoutes.validateIdentifier, async ({ path, query }) => ({
  body: { ...checkIdentifier(path.value, query.hint) },
}));
