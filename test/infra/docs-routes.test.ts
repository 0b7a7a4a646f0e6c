/**
 * The contract and its documentation, deployed: a method without authorizer per docs route, whose
 * function has no key lookup and no limits, and whose bundle carries the file it serves.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { functionDescription } from '../../lib/api-stack.ts';
import {
  chunkCommand,
  errorsPageCommand,
  lambdaBundling,
  MCP_CHUNK,
  mcpToolsCommand,
  SANDBOX_CHUNK,
  WEBAUTHN_CHUNK,
} from '../../lib/bundling.ts';
import { bundlingWithAssets } from '../../lib/constructs/api-function.ts';
import { docsRoutes, OPENAPI_DOCUMENT, SCALAR_BUNDLE } from '../../shared/docs/routes.ts';
import { resourcePaths, resourcesOf, type Synthesized, synthesize } from './synth.ts';

const publicRoutes = Object.values(docsRoutes);

describe('docs routes, deployed', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  }, 120_000);

  it('are public, and the only public routes', () => {
    expect(publicRoutes.map((route) => route.path).sort()).toEqual(
      ['/docs', '/docs/errors', '/docs/scalar.js', '/v1/openapi.json'].sort(),
    );
    for (const route of publicRoutes) expect(route.public).toBe(true);
  });

  it('each have a GET method without authorizer or API key, proxying to its own function', () => {
    const paths = resourcePaths(synth.apiTemplate);
    const methods = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Method'));
    for (const route of publicRoutes) {
      const method = methods.find(
        (candidate) =>
          candidate.Properties.HttpMethod === 'GET' &&
          paths.get((candidate.Properties.ResourceId as { Ref: string }).Ref) === route.path,
      );
      expect(method?.Properties, route.path).toMatchObject({
        AuthorizationType: 'NONE',
        OperationName: route.name,
        Integration: { Type: 'AWS_PROXY' },
      });
      expect(method?.Properties.ApiKeyRequired).not.toBe(true);
      expect(method?.Properties.AuthorizerId).toBeUndefined();
    }
  });

  it('have functions that read no table and no secret', () => {
    const functions = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function'));
    for (const route of publicRoutes) {
      const fn = functions.find(
        (candidate) => candidate.Properties.Description === functionDescription(route),
      );
      if (!fn) throw new Error(`no function for ${route.name}`);
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(
        Object.keys(env).filter((name) => /TABLE|SECRET|REGISTRY/.test(name)),
        route.name,
      ).toEqual([]);
    }
  });

  it('copy the document and Scalar’s bundle next to the bundles that serve or render them', () => {
    expect(docsRoutes.getOpenApiDocument.assets).toEqual([OPENAPI_DOCUMENT]);
    expect(docsRoutes.getApiReference.assets).toEqual([OPENAPI_DOCUMENT]);
    expect(docsRoutes.getApiReferenceScript.assets).toEqual([SCALAR_BUNDLE]);
    const bundling = bundlingWithAssets([OPENAPI_DOCUMENT, SCALAR_BUNDLE]);
    expect(bundling.commandHooks?.afterBundling('/in', '/out')).toEqual([
      ...[SANDBOX_CHUNK, MCP_CHUNK, WEBAUTHN_CHUNK].map((chunk) => chunkCommand(chunk, '/in', '/out')),
      errorsPageCommand('/in', '/out'),
      mcpToolsCommand('/in', '/out'),
      'cp "/in/docs/openapi.json" "/out/openapi.json"',
      'cp "/in/node_modules/@scalar/api-reference/dist/browser/standalone.js" "/out/standalone.js"',
    ]);
    expect(bundlingWithAssets([])).toBe(lambdaBundling);
  });
});
