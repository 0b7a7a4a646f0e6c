import { errorsPage } from '../../shared/docs/pages.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { docsRoutes } from '../../shared/http/routes/docs.ts';
import { serveStatic, staticFile } from '../../shared/http/static-file.ts';

const html = staticFile(() => new TextEncoder().encode(errorsPage()));

export const handler = createHttpHandler(docsRoutes.getErrorReference, async ({ headers }) =>
  serveStatic(html(), headers, 'text/html; charset=utf-8', 'errors.html'),
);
