/**
 * The one set of esbuild settings for Lambda bundles. CDK's `NodejsFunction` gets them through
 * `lambdaBundling`, and a benchmark (or any script) can hand `esbuildOptions` to esbuild's JS API
 * (`build({ ...esbuildOptions, entryPoints, outdir })`) to produce the very same bundle.
 */

import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/** esbuild target matching the Lambda runtime (nodejs22.x). */
export const NODE_TARGET = 'node22';

/** Prefer ESM entry points so that esbuild can tree-shake (the AWS SDK v3 in particular). */
export const MAIN_FIELDS = ['module', 'main'];

/**
 * Lambda bundles swap three heavy dependencies for what the service actually uses of them: the
 * SDK's default credential chain for an environment reader of its own (Lambda always passes the role's
 * credentials in environment variables), the SDK's event-stream codec (no operation the
 * service calls streams events), and Powertools' JMESPath (idempotency's expressions are field
 * names) for stand-ins that fail loudly. Relative to the project root, where both CDK and the
 * benchmark run esbuild. test/unit/bundling.test.ts bundles the SDK calls and an idempotent run with them.
 */
export const ALIASES = {
  '@aws-sdk/credential-provider-node': './shared/adapters/aws/lambda-credentials.ts',
  '@smithy/core/event-streams': './shared/adapters/aws/no-event-streams.ts',
  '@aws-lambda-powertools/jmespath': './shared/adapters/aws/jmespath-fields.ts',
  '@aws-lambda-powertools/jmespath/functions': './shared/adapters/aws/jmespath-fields.ts',
} as const;

/**
 * The sandbox registry (its code and sample data, about 80 KB) is a file of its own beside each
 * bundle that calls the registry, loaded on a test key's first registry call
 * (shared/composition/registry/registries.ts): a live key's function never compiles it. esbuild splits code
 * into chunks only for ES modules written to a directory, and CDK writes one CommonJS file, so the
 * bundle is told the file's name (`define`) and `afterBundling` writes it (`chunkCommand`, `CHUNKS`).
 */
export const SANDBOX_CHUNK = {
  entry: 'shared/composition/registry/sandbox.ts',
  file: 'sandbox-registry.cjs',
} as const;

/**
 * The error reference page (`/docs/errors`) is rendered when its function is bundled, into a file
 * beside the bundle (the function reads it on its first request, functions/docs/errors.ts): its
 * bundle does not carry the error catalogue and guide of every capability. `afterBundling`
 * renders it beside a bundle that names the file (`errorsPageCommand`).
 */
export const ERRORS_PAGE = { script: 'scripts/errors-page.ts', file: 'errors-page.html' } as const;

/**
 * The MCP server's function starts with its HTTP pipeline only. Its tools (their `tools/list`
 * answer and how to call each, shared/mcp/tools.ts) are worked out from the route table when the
 * function is bundled, into a file beside the bundle (`mcpToolsCommand`); the protocol server, the
 * route table and the fees are a second file beside it (`MCP_CHUNK`, built without response
 * schemas: the tools file has the output schemas). Both are read on the first request
 * (functions/mcp/post.ts), and written only beside a bundle that names them.
 */
export const MCP_TOOLS = { script: 'scripts/mcp-tools.ts', file: 'mcp-tools.json' } as const;
export const MCP_CHUNK = {
  entry: 'shared/app/mcp-on-request.ts',
  file: 'mcp-server.cjs',
  args: ['--define:process.env.ROUTE_RESPONSES_OMITTED=true'],
} as const;

/**
 * SimpleWebAuthn's server half (about 300 KB: ASN.1, X.509, the attestation formats' root
 * certificates) is a file of its own beside the two functions that verify a passkey's answer,
 * loaded on the first verification (shared/console/passkey-verification.ts).
 */
export const WEBAUTHN_CHUNK = { entry: 'shared/console/webauthn.ts', file: 'webauthn.cjs' } as const;

/** A file of its own beside a bundle that loads it: its entry bundled alone, with these CLI arguments more. */
interface Chunk {
  readonly entry: string;
  readonly file: string;
  readonly args?: readonly string[];
}

const CHUNKS: readonly Chunk[] = [SANDBOX_CHUNK, MCP_CHUNK, WEBAUTHN_CHUNK];

/**
 * Route entries' response schemas stay out of Lambda bundles: an entry's `response` is
 * `process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : schema` (shared/kernel/http/route.ts), so with
 * this defined esbuild drops the schema and never builds it at start. Only the contract, the MCP
 * server's tools (worked out at bundling, `MCP_TOOLS`) and the local response check read them.
 */
const RESPONSES_OMITTED = 'process.env.ROUTE_RESPONSES_OMITTED';

/**
 * esbuild JS API options. Nothing is external: the AWS SDK v3 is bundled and tree-shaken rather
 * than taken from the runtime, so the deployed code runs the SDK version the lock file pins.
 *
 * The output is CommonJS, which Lambda loads with `require`. Sources are still read as ESM (for
 * tree-shaking); only the bundle's module format differs. Measured on this machine, the same
 * bundle initialises about 10 ms faster as CommonJS than as an ES module (no ESM linking, and no
 * `createRequire` shim for the CommonJS dependencies), and no handler needs top-level await.
 */
export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  target: NODE_TARGET,
  format: 'cjs',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: [...MAIN_FIELDS],
  external: [],
  alias: { ...ALIASES },
  define: {
    'process.env.SANDBOX_CHUNK': JSON.stringify(SANDBOX_CHUNK.file),
    'process.env.ERRORS_PAGE_FILE': JSON.stringify(ERRORS_PAGE.file),
    'process.env.MCP_TOOLS_FILE': JSON.stringify(MCP_TOOLS.file),
    'process.env.MCP_CHUNK': JSON.stringify(MCP_CHUNK.file),
    'process.env.WEBAUTHN_CHUNK': JSON.stringify(WEBAUTHN_CHUNK.file),
    [RESPONSES_OMITTED]: 'true',
  } as Record<string, string>,
  logLevel: 'warning',
} satisfies BuildOptions;

/** The esbuild CLI arguments of these options (what `afterBundling` runs), entry and output aside. */
const cliArgs = (): string[] => [
  '--bundle',
  `--platform=${esbuildOptions.platform}`,
  `--target=${esbuildOptions.target}`,
  `--format=${esbuildOptions.format}`,
  '--minify',
  '--sourcemap',
  '--sources-content=false',
  `--main-fields=${esbuildOptions.mainFields.join(',')}`,
  ...Object.entries(ALIASES).map(([from, to]) => `--alias:${from}=${to}`),
  `--log-level=${esbuildOptions.logLevel}`,
];

/**
 * The shell command that bundles a chunk's entry into its file beside a bundle, when the bundle
 * loads it (names the file: the sandbox's only if it bundles shared/composition/registry/registries.ts).
 * Run in the project root.
 */
export const chunkCommand = (chunk: Chunk, inputDir: string, outputDir: string): string =>
  `if grep -q "${chunk.file}" "${outputDir}/index.js"; then "${inputDir}/node_modules/.bin/esbuild" "${inputDir}/${chunk.entry}" ${[
    ...cliArgs(),
    ...(chunk.args ?? []),
  ]
    .map((arg) => `"${arg}"`)
    .join(' ')} "--outfile=${outputDir}/${chunk.file}"; fi`;

/** The shell command that writes the MCP server's tools beside its bundle. Run in the project root. */
export const mcpToolsCommand = (inputDir: string, outputDir: string): string =>
  `if grep -q "${MCP_TOOLS.file}" "${outputDir}/index.js"; then "${inputDir}/node_modules/.bin/tsx" "${inputDir}/${MCP_TOOLS.script}" "${outputDir}/${MCP_TOOLS.file}"; fi`;

/** The shell command that renders the error reference page beside a bundle that serves it. Run in the project root. */
export const errorsPageCommand = (inputDir: string, outputDir: string): string =>
  `if grep -q "${ERRORS_PAGE.file}" "${outputDir}/index.js"; then "${inputDir}/node_modules/.bin/tsx" "${inputDir}/${ERRORS_PAGE.script}" "${outputDir}/${ERRORS_PAGE.file}"; fi`;

/** Writes a chunk's file beside a bundle with the JS API, as its command does (the bench and tests that run bundles). */
export const buildChunk = async (chunk: Chunk, outdir: string): Promise<void> => {
  const { build } = await import('esbuild');
  await build({
    ...esbuildOptions,
    sourcemap: false,
    entryPoints: [chunk.entry],
    outfile: `${outdir}/${chunk.file}`,
  });
};

/** Writes the sandbox file beside a bundle with the JS API. */
export const buildSandboxChunk = (outdir: string): Promise<void> => buildChunk(SANDBOX_CHUNK, outdir);

/** The same settings in `NodejsFunction` form, bundled by the local esbuild (never Docker). */
export const lambdaBundling: BundlingOptions = {
  forceDockerBundling: false,
  minify: esbuildOptions.minify,
  sourceMap: esbuildOptions.sourcemap,
  sourcesContent: esbuildOptions.sourcesContent,
  target: esbuildOptions.target,
  format: OutputFormat.CJS,
  mainFields: [...esbuildOptions.mainFields],
  externalModules: [...esbuildOptions.external],
  bundleAwsSDK: true,
  define: esbuildOptions.define,
  esbuildArgs: Object.fromEntries(Object.entries(ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => [
      ...CHUNKS.map((chunk) => chunkCommand(chunk, inputDir, outputDir)),
      errorsPageCommand(inputDir, outputDir),
      mcpToolsCommand(inputDir, outputDir),
    ],
  },
};
