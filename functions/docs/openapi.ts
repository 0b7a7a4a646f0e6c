import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { docsRoutes, OPENAPI_DOCUMENT } from '../../shared/http/routes/docs.ts';
import { readAsset, serveStatic } from '../../shared/http/static-file.ts';

/** docs/openapi.json, as `npm run openapi` wrote it from the route table. */
const document = readAsset(OPENAPI_DOCUMENT);

export const handler = createHttpHandler(docsRoutes.getOpenApiDocument, async ({ headers }) =>
  serveStatic(document(), headers, 'application/json; charset=utf-8', 'openapi.json'),
);
