import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { docsRoutes, SCALAR_BUNDLE } from '../../shared/http/routes/docs.ts';
import { readAsset, serveStatic } from '../../shared/http/static-file.ts';

const bundle = readAsset(SCALAR_BUNDLE);

export const handler = createHttpHandler(docsRoutes.getApiReferenceScript, async ({ headers }) =>
  serveStatic(bundle(), headers, 'text/javascript; charset=utf-8', 'scalar.js'),
);
