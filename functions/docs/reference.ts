import { readFileSync } from 'node:fs';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { DOCS_HEADERS } from '../../shared/docs/pages.ts';
import { apiReferencePage, type OpenApiDocument } from '../../shared/docs/reference-page.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { OPENAPI_DOCUMENT } from '../../shared/docs/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { assetPath, serveStatic, staticFile } from '../../shared/kernel/http/static-file.ts';

/** Rendered once per process from the document `/v1/openapi.json` serves. */
const html = staticFile(() =>
  new TextEncoder().encode(
    apiReferencePage(JSON.parse(readFileSync(assetPath(OPENAPI_DOCUMENT), 'utf8')) as OpenApiDocument),
  ),
);

export const createHandler = (ports: RoutePorts<typeof docsRoutes.getApiReference>) =>
  createHttpHandler(docsRoutes.getApiReference, ports, async ({ headers }) => {
    const result = serveStatic(html(), headers, 'text/html; charset=utf-8', 'index.html');
    return { ...result, headers: { ...result.headers, ...DOCS_HEADERS } };
  });

export const handler = createHandler(awsRoutePorts(docsRoutes.getApiReference, {}));
