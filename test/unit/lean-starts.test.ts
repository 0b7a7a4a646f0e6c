/**
 * The MCP server and the passkey verifiers as Lambda gets them (docs/decisions/0127-lean-mcp-and-passkeys.md):
 * each bundled with the Lambda esbuild settings in a directory of its own, CDK's `afterBundling`
 * commands run beside it. The MCP function's bundle carries neither the SDK nor the tools: its tools
 * file holds the very `tools/list` answer the route table gives, and its second file answers the
 * protocol with it. The verifying functions' bundles carry no SimpleWebAuthn: the file beside them
 * verifies a passkey's registration and sign-in.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, lambdaBundling, MCP_CHUNK, MCP_TOOLS, WEBAUTHN_CHUNK } from '../../lib/bundling.ts';
import { routeList, routes } from '../../shared/app/routes.ts';
import type { webAuthn } from '../../shared/console/passkey-verification.ts';
import type { McpContext } from '../../shared/mcp/server.ts';
import { catalogueOf, type ToolCatalogue, toolsOf } from '../../shared/mcp/tools.ts';
import { SoftwareAuthenticator } from '../support/webauthn.ts';

type OnRequest = typeof import('../../shared/app/mcp-on-request.ts');

const out = mkdtempSync(join(tmpdir(), 'lean-starts-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Bundles an entry as CDK does into `<out>/<name>/index.js` and runs the `afterBundling` commands there. */
async function lambdaDir(
  name: string,
  entry: { entryPoints: string[] } | { stdin: string },
): Promise<string> {
  const dir = join(out, name);
  await build({
    ...esbuildOptions,
    sourcemap: false,
    ...('stdin' in entry
      ? { stdin: { contents: entry.stdin, resolveDir: resolve('.'), loader: 'ts' as const } }
      : entry),
    outfile: join(dir, 'index.js'),
  });
  for (const command of lambdaBundling.commandHooks?.afterBundling(resolve('.'), dir) ?? [])
    execFileSync('bash', ['-c', command], { cwd: resolve('.') });
  return dir;
}

const text = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('the MCP function, as deployed', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await lambdaDir('Mcp', { entryPoints: [`functions/${routes.mcp.handler}.ts`] });
  }, 120_000);

  it('has its tools worked out at bundling: the route table’s tools/list answer, byte for byte, and how to call each', () => {
    const expected = catalogueOf(toolsOf(routeList));
    const written = JSON.parse(text(dir, MCP_TOOLS.file)) as ToolCatalogue;
    expect(JSON.stringify(written.list)).toBe(JSON.stringify(expected.list));
    expect(written.calls).toEqual(expected.calls);
    expect(written.calls.purchase_company_extract).toEqual({
      kind: 'buy',
      route: routes.purchaseCompanyExtract.name,
      argumentsIn: { path: ['id'], query: [], body: ['type'] },
    });
  });

  it('starts without the SDK, the route table or the tools: they are in the files beside it', () => {
    const bundle = text(dir, 'index.js');
    expect(bundle).toContain(MCP_CHUNK.file);
    expect(bundle).toContain(MCP_TOOLS.file);
    // The SDK's transport, a tool's description, a route of another area.
    for (const absent of ['Mcp-Session-Id', 'get their consent before buying', routes.getMonitor.summary])
      expect(bundle, absent).not.toContain(absent);
    expect(text(dir, MCP_CHUNK.file)).toContain('Mcp-Session-Id');
  });

  it('answers initialize, tools/list and a tool call from the file beside it, with the tools file', async () => {
    const chunk = createRequire(join(dir, 'index.js'))(join(dir, MCP_CHUNK.file)) as OnRequest;
    const catalogue = JSON.parse(text(dir, MCP_TOOLS.file)) as ToolCatalogue;
    const routesInChunk = await chunk.loadRouteList();
    // Built without response schemas: the tools file has the output schemas.
    expect(routesInChunk.map((route) => [route.name, route.response])).toEqual(
      routeList.map((route) => [route.name, undefined]),
    );
    const context: McpContext = {
      catalogue: async () => catalogue,
      routeNamed: async (name) => routesInChunk.find((route) => route.name === name) as never,
      apiBaseUrl: 'https://api.example.com',
      authorization: 'Bearer sk_test_x',
      keyId: 'key_1',
      clock: { now: () => new Date('2026-11-29T00:00:00.000Z') },
      cursors: { signature: async () => 'signature' } as never,
      feeOf: async () => {
        throw new Error('not quoted here');
      },
    };
    const answer = async (body: Record<string, unknown>) => {
      const request = new Request('https://api.example.com/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify(body),
      });
      const response = await chunk.answerMcp(context, request, body);
      return { status: response.status, body: await response.text() };
    };
    const initialize = await answer({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    expect(initialize.status).toBe(200);
    expect(JSON.parse(initialize.body).result.serverInfo).toEqual({
      name: 'company-register-data-service',
      version: '1.0.0',
    });
    const list = await answer({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(list.body).toBe(
      `{"result":${JSON.stringify(catalogueOf(toolsOf(routeList)).list)},"jsonrpc":"2.0","id":2}`,
    );
    const call = await answer({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'purchase_company_extract', arguments: { id: 'not-a-number', type: 'current' } },
    });
    const result = JSON.parse(call.body).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text).error).toMatchObject({ code: 'acn_invalid', param: 'id' });
  });
});

describe('the passkey verifiers, as deployed', () => {
  it('start without SimpleWebAuthn, and verify a registration and a sign-in with the file beside them', async () => {
    const origin = 'https://console.example.com';
    for (const route of [routes.registerPasskey, routes.signInWithPasskey]) {
      const bundled = await lambdaDir(route.name, { entryPoints: [`functions/${route.handler}.ts`] });
      expect(existsSync(join(bundled, WEBAUTHN_CHUNK.file)), route.name).toBe(true);
      // Text of SimpleWebAuthn's verifications.
      expect(text(bundled, 'index.js')).not.toContain('Unexpected authentication response type');
    }
    const dir = await lambdaDir('verification', {
      stdin: "export { webAuthn } from './shared/console/passkey-verification.ts';",
    });
    const { webAuthn: load } = createRequire(join(dir, 'index.js'))(join(dir, 'index.js')) as {
      webAuthn: typeof webAuthn;
    };
    const { verifyRegistrationResponse, verifyAuthenticationResponse } = await load();
    const authenticator = new SoftwareAuthenticator(origin);
    const registration = await verifyRegistrationResponse({
      response: authenticator.register({
        challenge: 'Y2hhbGxlbmdl',
        rp: { id: 'console.example.com' },
      }) as never,
      expectedChallenge: 'Y2hhbGxlbmdl',
      expectedOrigin: origin,
      expectedRPID: 'console.example.com',
      requireUserVerification: false,
    });
    expect(registration.verified).toBe(true);
    if (!registration.verified) return;
    const { credential } = registration.registrationInfo;
    expect(credential.id).toBe(authenticator.id);
    const signIn = await verifyAuthenticationResponse({
      response: authenticator.authenticate({ challenge: 'c2lnbi1pbg', rpId: 'console.example.com' }) as never,
      expectedChallenge: 'c2lnbi1pbg',
      expectedOrigin: origin,
      expectedRPID: 'console.example.com',
      credential,
      requireUserVerification: false,
    });
    expect(signIn.verified).toBe(true);
    expect(signIn.authenticationInfo.newCounter).toBe(2);
    // A function that verifies nothing gets no such file.
    const list = await lambdaDir(routes.listPasskeys.name, {
      entryPoints: [`functions/${routes.listPasskeys.handler}.ts`],
    });
    expect(existsSync(join(list, WEBAUTHN_CHUNK.file))).toBe(false);
    expect(existsSync(join(list, MCP_CHUNK.file))).toBe(false);
    expect(existsSync(join(list, MCP_TOOLS.file))).toBe(false);
  }, 120_000);
});
