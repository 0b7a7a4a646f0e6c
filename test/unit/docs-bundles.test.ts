/**
 * The docs routes as Lambda runs them: each handler bundled with the Lambda esbuild settings, its
 * route's `assets` next to the bundle (as CDK's `afterBundling` hook puts them), and invoked with
 * an API Gateway event and `LAMBDA_TASK_ROOT` set, without DynamoDB or an API key.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../lib/bundling.ts';
import { routeList } from '../../shared/app/routes.ts';
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
const handlers = new Map<string, Handler>();
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
    LAMBDA_TASK_ROOT: out,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
  });
  const require = createRequire(import.meta.url);
  for (const route of routes) {
    const outfile = join(out, `${route.name}.js`);
    await build({
      ...esbuildOptions,
      sourcemap: false,
      logLevel: 'error',
      entryPoints: [`functions/${route.handler}.ts`],
      outfile,
    });
    for (const asset of route.assets ?? []) copyFileSync(asset, join(out, basename(asset)));
    handlers.set(route.name, (require(outfile) as { handler: Handler }).handler);
  }
}, 60_000);

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
    const handler = handlers.get('GetOpenApiDocument') as Handler;
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
    const page = await (handlers.get('GetApiReference') as Handler)(event('/docs', {}), context);
    expect(page.statusCode).toBe(200);
    const first = routeList.find((route) => !route.internal);
    expect(body(page)).toContain(
      `<section id="${first?.name}" class="operation"><h3 elementtiming="first-operation">${first?.summary}</h3>`,
    );
    expect(body(page)).toContain("script.src = 'docs/scalar.js';");
    const script = await (handlers.get('GetApiReferenceScript') as Handler)(
      event('/docs/scalar.js', { 'Accept-Encoding': 'gzip' }),
      context,
    );
    expect(script.statusCode).toBe(200);
    expect(script.headers['Content-Encoding']).toBe('gzip');
    // Lambda's response payload limit is 6 MB.
    expect(script.body.length).toBeLessThan(6 * 1024 * 1024);
    expect(body(script)).toContain('createApiReference');
    const errors = await (handlers.get('GetErrorReference') as Handler)(event('/docs/errors', {}), context);
    expect(errors.statusCode).toBe(200);
    expect(body(errors)).toContain('<tr id="unauthorized">');
  });
});
