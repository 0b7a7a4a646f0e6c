import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { docsRoutes, SCALAR_BUNDLE } from '../../shared/http/routes/docs.ts';
import { readAsset, serveStatic } from '../../shared/http/static-file.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

const bundle = readAsset(SCALAR_BUNDLE);

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(docsRoutes.getApiReferenceScript, ports, async ({ headers }) =>
    serveStatic(bundle(), headers, 'text/javascript; charset=utf-8', 'scalar.js'),
  );

export const handler = createHandler(awsHttpPorts({}));
