import { readFileSync } from 'node:fs';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { DOCS_HEADERS } from '../../shared/docs/pages.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { assetPath, type StaticFile, serveStatic, staticFile } from '../../shared/kernel/http/static-file.ts';

/**
 * The page's HTML. A Lambda bundle reads it from the file rendered beside it when it was bundled
 * (lib/bundling.ts defines `ERRORS_PAGE_FILE` and writes that file), so the function never loads
 * the error catalogue of every capability; elsewhere (the local stack, tests) it is rendered from
 * the catalogue on first use.
 */
const pageHtml = async (): Promise<Uint8Array> =>
  process.env.ERRORS_PAGE_FILE
    ? readFileSync(assetPath(process.env.ERRORS_PAGE_FILE))
    : Promise.all([import('../../shared/app/errors.ts'), import('../../shared/docs/errors-page.ts')]).then(
        ([{ serviceErrors }, { errorsPage }]) => new TextEncoder().encode(errorsPage(serviceErrors)),
      );

let html: Promise<StaticFile> | undefined;
const page = () => {
  html ??= pageHtml().then((bytes) => staticFile(() => bytes)());
  return html;
};

export const createHandler = (ports: RoutePorts<typeof docsRoutes.getErrorReference>) =>
  createHttpHandler(docsRoutes.getErrorReference, ports, async ({ headers }) => {
    const result = serveStatic(await page(), headers, 'text/html; charset=utf-8', 'errors.html');
    return { ...result, headers: { ...result.headers, ...DOCS_HEADERS } };
  });

export const handler = createHandler(awsRoutePorts(docsRoutes.getErrorReference, {}));
