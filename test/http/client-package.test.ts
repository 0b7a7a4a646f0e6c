/**
 * The typed client as a package people install: built (`npm run client:build`), packed with
 * `npm pack`, installed offline into an empty project, type-checked there as a customer's code
 * would be (strict, the package's own declarations checked too), then run against the local stack:
 * it buys a sandbox extract, pages its documents and verifies a real webhook delivery. The
 * CommonJS entry is loaded too.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientPackage, CLIENT_DIR } from '../../scripts/build-client.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { baseUrl, createKey } from '../support/api.ts';
import { type IntegratorProject, integratorProject, run } from '../support/integrator-project.ts';
import { localStack } from '../support/stack.ts';

const program = fileURLToPath(new URL('client-package/program.ts', import.meta.url));

let project: IntegratorProject;

beforeAll(async () => {
  project = integratorProject('client-package', 'consumer');
  await buildClientPackage();
  const packed = await run('npm', ['pack', '--pack-destination', project.dir, '--silent'], {
    cwd: CLIENT_DIR,
  });
  const tarball = packed.stdout.trim().split('\n').pop() as string;
  // --offline: the package must install with no registry at hand (it depends on nothing).
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball}`], {
    cwd: project.dir,
  });
  project.addProgram(program);
}, 180_000);

afterAll(() => project?.remove());

describe('the packed client', () => {
  it('holds built JavaScript (ESM and CommonJS) and declarations only, with no .ts import', async () => {
    const files = readdirSync(project.path('node_modules/company-register-client'), { recursive: true });
    expect(files.map(String).sort()).toStrictEqual([
      'LICENSE',
      'README.md',
      'dist',
      'dist/THIRD-PARTY-NOTICES.md',
      'dist/index.cjs',
      'dist/index.d.cts',
      'dist/index.d.mts',
      'dist/index.mjs',
      'package.json',
    ]);
    const installed = project.path('node_modules/company-register-client/dist');
    for (const file of ['index.mjs', 'index.cjs', 'index.d.mts', 'index.d.cts']) {
      const text = readFileSync(`${installed}/${file}`, 'utf8');
      expect(text, file).not.toMatch(/(from|import|require)\s*\(?\s*['"][^'"]+\.ts['"]/);
      expect(text, file).not.toMatch(/(from|require\()\s*['"]openapi-fetch['"]/);
    }
  });

  it("type-checks a customer's program against its declarations (strict, declarations included)", async () => {
    expect(await project.typeCheck()).toBe('');
  }, 120_000);

  it('runs against the local stack: buys an extract, pages its documents, verifies a webhook', async () => {
    const key = await createKey('test');
    const tls = localStack.webhookTls;
    writeFileSync(project.path('tls.key'), tls.key);
    writeFileSync(project.path('tls.cert'), tls.cert);
    const { stdout } = await run(
      process.execPath,
      ['--experimental-strip-types', '--no-warnings', 'program.ts'],
      {
        cwd: project.dir,
        env: {
          ...process.env,
          API_URL: baseUrl,
          API_KEY: key.secret,
          COMPANY: SANDBOX.imageOrders,
          TLS_KEY: 'tls.key',
          TLS_CERT: 'tls.cert',
        },
      },
    );
    expect(JSON.parse(stdout)).toStrictEqual({
      extract: {
        id: expect.stringMatching(/^ext_[0-9a-f]{24}$/),
        type: 'current',
        company: 'LYREBIRD ARCHIVES PTY LTD',
      },
      // Three documents, two a page: the second page was fetched with the first one's cursor.
      documents: ['9E0250003', '9E0250002', '9E0250001'],
      event: { type: 'webhook_endpoint.test', livemode: false },
      tampered: 'refused: no v1 signature matches the payload and secret',
    });
  }, 60_000);

  it('loads through require (CommonJS) with the same exports', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '-e',
        "const c = require('company-register-client'); console.log(JSON.stringify(Object.keys(c).sort()))",
      ],
      { cwd: project.dir },
    );
    expect(JSON.parse(stdout)).toStrictEqual([
      'CompanyRegisterError',
      'CompanyRegisterNetworkError',
      'WebhookVerificationError',
      'createCompanyRegisterClient',
      'idempotencyKeyOf',
      'newIdempotencyKey',
      'replayable',
      'retryDelayMs',
      'retryable',
      'retryingFetch',
      'verifyWebhook',
    ]);
  });
});
