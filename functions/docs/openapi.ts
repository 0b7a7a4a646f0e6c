import { readFileSync } from 'node:fs';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { OPENAPI_DOCUMENT } from '../../shared/docs/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { assetPath, serveStatic, staticFile } from '../../shared/kernel/http/static-file.ts';

/**
 * docs/openapi.json, as `npm run openapi` wrote it from the route table, served without its
 * indentation: the committed file is indented for review, the wire gets the same JSON at half the
 * size (414 KB instead of 864 KB, 41 KB gzipped instead of 59 KB:
 * docs/decisions/0016-contract-errors-once.md).
 */
const document = staticFile(() =>
  new TextEncoder().encode(JSON.stringify(JSON.parse(readFileSync(assetPath(OPENAPI_DOCUMENT), 'utf8')))),
);

export const createHandler = (ports: RoutePorts<typeof docsRoutes.getOpenApiDocument>) =>
  createHttpHandler(docsRoutes.getOpenApiDocument, ports, async ({ headers }) =>
    serveStatic(document(), headers, 'application/json; charset=utf-8', 'openapi.json'),
  );

export const handler = createHandler(awsRoutePorts(docsRoutes.getOpenApiDocument, {}));
