/**
 * `npm run openapi`: writes docs/openapi.json from the route table (shared/http/openapi/). The
 * service serves that file at `GET /v1/openapi.json`; test/unit/openapi.test.ts fails when it
 * differs from what the route table generates.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../shared/http/openapi/document.ts';
import { routeList } from '../shared/http/routes.ts';

export const OPENAPI_FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

/** The committed file's exact text: two-space JSON and a final newline. */
export const openApiText = (): string => `${JSON.stringify(buildOpenApiDocument(routeList), null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_FILE, openApiText());
  console.log(`wrote ${OPENAPI_FILE}`);
}
