import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { docsRoutes, OPENAPI_DOCUMENT } from '../../shared/docs/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { readAsset, serveStatic } from '../../shared/kernel/http/static-file.ts';

/** docs/openapi.json, as `npm run openapi` wrote it from the route table. */
const document = readAsset(OPENAPI_DOCUMENT);

export const createHandler = (ports: RoutePorts<typeof docsRoutes.getOpenApiDocument>) =>
  createHttpHandler(docsRoutes.getOpenApiDocument, ports, async ({ headers }) =>
    serveStatic(document(), headers, 'application/json; charset=utf-8', 'openapi.json'),
  );

export const handler = createHandler(awsRoutePorts(docsRoutes.getOpenApiDocument, {}));
