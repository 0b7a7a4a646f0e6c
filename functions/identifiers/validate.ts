import { checkIdentifier } from '../../shared/domain/identifiers.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = createHttpHandler(routes.validateIdentifier, async ({ path, query }) => ({
  body: { ...checkIdentifier(path.value, query.hint) },
}));
