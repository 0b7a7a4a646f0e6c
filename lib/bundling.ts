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
  logLevel: 'warning',
} satisfies BuildOptions;

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
  esbuildArgs: Object.fromEntries(Object.entries(ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
};
