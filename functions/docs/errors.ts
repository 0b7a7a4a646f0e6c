import { serviceErrors } from '../../shared/app/errors.ts';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { errorsPage } from '../../shared/docs/errors-page.ts';
import { DOCS_HEADERS } from '../../shared/docs/pages.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { serveStatic, staticFile } from '../../shared/kernel/http/static-file.ts';

const html = staticFile(() => new TextEncoder().encode(errorsPage(serviceErrors)));

export const createHandler = (ports: RoutePorts<typeof docsRoutes.getErrorReference>) =>
  createHttpHandler(docsRoutes.getErrorReference, ports, async ({ headers }) => {
    const result = serveStatic(html(), headers, 'text/html; charset=utf-8', 'errors.html');
    return { ...result, headers: { ...result.headers, ...DOCS_HEADERS } };
  });

export const handler = createHandler(awsRoutePorts(docsRoutes.getErrorReference, {}));
