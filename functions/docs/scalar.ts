import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { DOCS_HEADERS } from '../../shared/docs/pages.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { SCALAR_BUNDLE } from '../../shared/docs/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { readAsset, serveStatic } from '../../shared/kernel/http/static-file.ts';

const bundle = readAsset(SCALAR_BUNDLE);

export const createHandler = (ports: RoutePorts<typeof docsRoutes.getApiReferenceScript>) =>
  createHttpHandler(docsRoutes.getApiReferenceScript, ports, async ({ headers }) => {
    const result = serveStatic(bundle(), headers, 'text/javascript; charset=utf-8', 'scalar.js');
    return { ...result, headers: { ...result.headers, ...DOCS_HEADERS } };
  });

export const handler = createHandler(awsRoutePorts(docsRoutes.getApiReferenceScript, {}));
