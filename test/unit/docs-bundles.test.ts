/**
 * The docs routes as Lambda runs them: each handler bundled with the Lambda esbuild settings in a
 * directory of its own, its route's `assets` next to the bundle and the files CDK's `afterBundling`
 * hook writes (the error reference page), and invoked with an API Gateway event and
 * `LAMBDA_TASK_ROOT` set to that directory, without DynamoDB or an API key.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS_PAGE, esbuildOptions, lambdaBundling } from '../../lib/bundling.ts';
import { serviceErrors } from '../../shared/app/errors.ts';
import { routeList } from '../../shared/app/routes.ts';
import { errorsPage } from '../../shared/docs/errors-page.ts';
import { docsRoutes } from '../../shared/docs/routes.ts';

type Handler = (
  event: unknown,
  context: unknown,
) => Promise<{
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}>;

const routes = Object.values(docsRoutes);
const out = mkdtempSync(join(tmpdir(), 'docs-bundles-'));
const bundled = new Map<string, { dir: string; handler: Handler }>();
const handlers = {
  get: (name: string): Handler => {
    const { dir, handler } = bundled.get(name) as { dir: string; handler: Handler };
    return (event, context) => {
      process.env.LAMBDA_TASK_ROOT = dir;
      return handler(event, context);
    };
  },
};
const saved = { ...process.env };

const event = (path: string, headers: Record<string, string>) => ({
  httpMethod: 'GET',
  path,
  resource: path,
  headers,
  multiValueHeaders: {},
  queryStringParameters: null,
  multiValueQueryStringParameters: null,
  pathParameters: null,
  body: null,
  isBase64Encoded: false,
  requestContext: { requestId: 'docs-bundle-test' },
});
const context = { getRemainingTimeInMillis: () => 10_000, functionName: 'docs', awsRequestId: 'r' };

beforeAll(async () => {
  Object.assign(process.env, {
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
  });
  const require = createRequire(import.meta.url);
  for (const route of routes) {
    const dir = join(out, route.name);
    mkdirSync(dir);
    const outfile = join(dir, 'index.js');
    await build({
      ...esbuildOptions,
      sourcemap: false,
      logLevel: 'error',
      entryPoints: [`functions/${route.handler}.ts`],
      outfile,
    });
    for (const asset of route.assets ?? []) copyFileSync(asset, join(dir, basename(asset)));
    for (const command of lambdaBundling.commandHooks?.afterBundling(resolve('.'), dir) ?? [])
      execFileSync('bash', ['-c', command], { cwd: resolve('.') });
    bundled.set(route.name, { dir, handler: (require(outfile) as { handler: Handler }).handler });
  }
}, 120_000);

afterAll(() => {
  process.env = saved;
  rmSync(out, { recursive: true, force: true });
});

const body = (response: Awaited<ReturnType<Handler>>) => {
  const bytes = response.isBase64Encoded ? Buffer.from(response.body, 'base64') : Buffer.from(response.body);
  return (response.headers['Content-Encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
};

describe('docs routes bundled for Lambda', () => {
  it('serve the committed document from the bundle’s directory, without a key, with its ETag', async () => {
    const handler = handlers.get('GetOpenApiDocument');
    const response = await handler(event('/v1/openapi.json', { 'Accept-Encoding': 'gzip' }), context);
    expect(response.statusCode).toBe(200);
    expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(response.isBase64Encoded).toBe(true);
    // The committed document without its indentation.
    expect(body(response)).toBe(JSON.stringify(JSON.parse(readFileSync('docs/openapi.json', 'utf8'))));
    const again = await handler(
      event('/v1/openapi.json', { 'If-None-Match': response.headers.ETag as string }),
      context,
    );
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('serve the page, rendered from the document next to the bundle, Scalar’s bundle and the error reference', async () => {
    const page = await handlers.get('GetApiReference')(event('/docs', {}), context);
    expect(page.statusCode).toBe(200);
    const first = routeList.find((route) => !route.internal);
    expect(body(page)).toContain(
      `<section id="${first?.name}" class="operation"><h3 elementtiming="first-operation">${first?.summary}</h3>`,
    );
    expect(body(page)).toContain("script.src = 'docs/scalar.js';");
    const script = await handlers.get('GetApiReferenceScript')(
      event('/docs/scalar.js', { 'Accept-Encoding': 'gzip' }),
      context,
    );
    expect(script.statusCode).toBe(200);
    expect(script.headers['Content-Encoding']).toBe('gzip');
    // Lambda's response payload limit is 6 MB.
    expect(script.body.length).toBeLessThan(6 * 1024 * 1024);
    expect(body(script)).toContain('createApiReference');
    const errors = await handlers.get('GetErrorReference')(event('/docs/errors', {}), context);
    expect(errors.statusCode).toBe(200);
    expect(body(errors)).toContain('<tr id="unauthorized">');
  });

  it('serve the error reference rendered beside its bundle when it was bundled, without the catalogue in the bundle', async () => {
    const { dir } = bundled.get('GetErrorReference') as { dir: string };
    expect(readFileSync(join(dir, ERRORS_PAGE.file), 'utf8')).toBe(errorsPage(serviceErrors));
    const bundle = readFileSync(join(dir, 'index.js'), 'utf8');
    for (const code of ['unauthorized', 'monitor_not_found'] as const)
      expect(bundle, code).not.toContain(serviceErrors[code].cause);
    const errors = await handlers.get('GetErrorReference')(event('/docs/errors', {}), context);
    expect(errors.statusCode).toBe(200);
    expect(errors.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(body(errors)).toBe(errorsPage(serviceErrors));
    // Only the error reference's bundle gets the page.
    expect(existsSync(join(out, 'GetApiReference', ERRORS_PAGE.file))).toBe(false);
  });
});
