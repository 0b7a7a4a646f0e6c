import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { errorsPage } from '../../shared/docs/pages.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { docsRoutes } from '../../shared/http/routes/docs.ts';
import { serveStatic, staticFile } from '../../shared/http/static-file.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

const html = staticFile(() => new TextEncoder().encode(errorsPage()));

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(docsRoutes.getErrorReference, ports, async ({ headers }) =>
    serveStatic(html(), headers, 'text/html; charset=utf-8', 'errors.html'),
  );

export const handler = createHandler(awsHttpPorts({}));
