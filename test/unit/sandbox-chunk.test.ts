import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandboxChunk, esbuildOptions, lambdaBundling, SANDBOX_CHUNK } from '../../lib/bundling.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';

/**
 * A Lambda bundle leaves the sandbox registry out and loads it from a file of its own on a test
 * key's first call (lib/bundling.ts, shared/composition/registry/registries.ts). The use case runs in the
 * bundle and the sandbox in the other file: a rejection thrown there must still be the bundle's
 * `RegistryRejection`, or a test key's unknown company would answer 500 instead of 404.
 */
const ENTRY = `
import { createRegistries } from './shared/composition/registry/registries.ts';
import { lookupCompany } from './shared/companies/extracts.ts';
import { parseCompanyIdentifier } from './shared/companies/identifier.ts';

export async function lookUp(id) {
  const registryFor = createRegistries({ config: {}, clock: { now: () => new Date('2026-11-25T10:00:00Z') } });
  const caller = { accountId: 'acct_1', requestId: 'req_1' };
  return lookupCompany(registryFor('test'), parseCompanyIdentifier(id), caller).then(
    (company) => ({ number: company.number }),
    (error) => ({ code: error.code, status: error.status }),
  );
}
`;

type LookUp = (id: string) => Promise<{ number?: string; code?: string; status?: number }>;

const bundleEntry = async (outfile: string) => {
  const { metafile } = await build({
    ...esbuildOptions,
    sourcemap: false,
    metafile: true,
    stdin: { contents: ENTRY, resolveDir: resolve('.'), loader: 'ts', sourcefile: 'lookup.ts' },
    outfile,
  });
  return Object.keys(metafile.inputs);
};

describe('the sandbox in a file beside the bundle', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'crds-sandbox-chunk-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('is not in the bundle, and serves a test key from its own file with the bundle’s rejections', async () => {
    const outfile = join(outdir, 'lookup.cjs');
    const inputs = await bundleEntry(outfile);
    expect(inputs.filter((input) => input.startsWith('shared/adapters/sandbox/'))).toEqual([]);
    expect(readFileSync(outfile, 'utf8')).toContain(SANDBOX_CHUNK.file);
    await buildSandboxChunk(outdir);
    const { lookUp } = (await import(pathToFileURL(outfile).href)) as { lookUp: LookUp };
    expect(await lookUp(SANDBOX.proprietary)).toEqual({ number: SANDBOX.proprietary });
    expect(await lookUp(SANDBOX.unknownNumber)).toEqual({ code: 'company_not_found', status: 404 });
  }, 60_000);

  it('is written by the command CDK runs after bundling, only beside a bundle that loads it', async () => {
    const withRegistry = join(outdir, 'with');
    const without = join(outdir, 'without');
    await bundleEntry(join(withRegistry, 'index.js'));
    await build({
      ...esbuildOptions,
      sourcemap: false,
      stdin: { contents: 'export const handler = () => 1;', resolveDir: resolve('.'), loader: 'ts' },
      outfile: join(without, 'index.js'),
    });
    for (const dir of [withRegistry, without]) {
      const commands = lambdaBundling.commandHooks?.afterBundling(resolve('.'), dir) ?? [];
      // The three chunks' commands, the error reference page's and the MCP tools' (not written beside these).
      expect(commands).toHaveLength(5);
      for (const command of commands) execFileSync('bash', ['-c', command], { cwd: resolve('.') });
    }
    expect(existsSync(join(without, SANDBOX_CHUNK.file))).toBe(false);
    const { lookUp } = (await import(pathToFileURL(join(withRegistry, 'index.js')).href)) as {
      lookUp: LookUp;
    };
    expect(await lookUp(SANDBOX.unknownNumber)).toEqual({ code: 'company_not_found', status: 404 });
  }, 60_000);
});
