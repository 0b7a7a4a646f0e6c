import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../../lib/bundling.ts';
import { type WorkflowTask, workflowTasks } from '../../../shared/orders/infra.ts';

/**
 * Each workflow task's Lambda bundle, built with the settings CDK uses (lib/bundling.ts): it holds
 * its own step and no other, and is at most 400 KB minified; only the PDF compile, which carries
 * pdf-lib (about 420 KB with its fonts), may be larger.
 */
const LIMIT_BYTES = 400 * 1024;
const STEPS_DIR = 'shared/orders/steps/';
/** What every step may share (the input and records, the failure it may throw, registry calls). */
const SHARED_STEP_MODULES = ['common.ts', 'failure.ts', 'registry-call.ts'];

async function bundle(task: WorkflowTask) {
  const result = await build({
    ...esbuildOptions,
    sourcemap: false,
    entryPoints: [`functions/${task.handler}.ts`],
    outfile: `${task.name}.cjs`,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  const inputs = Object.keys(result.metafile.inputs);
  return { bytes: output?.contents.byteLength ?? 0, inputs };
}

describe('workflow task bundles', () => {
  it.each(workflowTasks.map((task) => [task.name, task] as const))(
    '%s bundles its own step only, within 400 KB unless it compiles the PDF',
    async (name, task) => {
      const { bytes, inputs } = await bundle(task);
      const steps = inputs
        .filter((input) => input.startsWith(STEPS_DIR))
        .map((input) => input.slice(STEPS_DIR.length))
        .filter((file) => !SHARED_STEP_MODULES.includes(file));
      // The step has its entry module's name: functions/workers/fulfilment/send-email.ts runs steps/send-email.ts.
      expect(steps).toStrictEqual([`${task.handler.slice(task.handler.lastIndexOf('/') + 1)}.ts`]);
      if (name === 'CompilePdf') {
        expect(inputs.some((input) => input.includes('node_modules/pdf-lib/'))).toBe(true);
      } else {
        expect(inputs.filter((input) => input.includes('node_modules/pdf-lib/'))).toStrictEqual([]);
        expect(bytes, `${name}: ${(bytes / 1024).toFixed(0)} KB`).toBeLessThanOrEqual(LIMIT_BYTES);
      }
    },
    30_000,
  );
});
