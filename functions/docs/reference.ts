import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { apiReferencePage } from '../../shared/docs/pages.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { docsRoutes } from '../../shared/http/routes/docs.ts';
import { serveStatic, staticFile } from '../../shared/http/static-file.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

const html = staticFile(() => new TextEncoder().encode(apiReferencePage()));

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(docsRoutes.getApiReference, ports, async ({ headers }) =>
    serveStatic(html(), headers, 'text/html; charset=utf-8', 'index.html'),
  );

export const handler = createHandler(awsHttpPorts({}));
