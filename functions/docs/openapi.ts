import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { docsRoutes, OPENAPI_DOCUMENT } from '../../shared/http/routes/docs.ts';
import { readAsset, serveStatic } from '../../shared/http/static-file.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

/** docs/openapi.json, as `npm run openapi` wrote it from the route table. */
const document = readAsset(OPENAPI_DOCUMENT);

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(docsRoutes.getOpenApiDocument, ports, async ({ headers }) =>
    serveStatic(document(), headers, 'application/json; charset=utf-8', 'openapi.json'),
  );

export const handler = createHandler(awsHttpPorts({}));
