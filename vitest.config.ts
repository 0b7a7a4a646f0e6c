import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { longFilesFirst } from './test/support/sequencer.ts';

/**
 * HTTP test files on local stacks of their own, never shared with another file's data:
 * monitoring-jobs' daily check reads every company watched on its stack (beside the other files'
 * bulk imports, thousands, each of its runs took tens of seconds); crash-recovery starts and kills
 * stack processes on its stack's DynamoDB Local.
 */
/** Prices where `PRICE_SCHEDULE` is unset: the catalog's examples (test/support/example-prices.ts). */
const EXAMPLE_PRICES = ['test/support/example-prices.ts'];

const OWN_STACKS = [
  'test/http/monitoring-jobs.test.ts',
  'test/http/crash-recovery.test.ts',
  'test/http/spend-caps-monitoring.test.ts',
];

/**
 * An HTTP project's files run on its local stacks, one per worker slot (test/support/local-stack.ts):
 * a slot runs its files one at a time, so a test that moves its stack's clock disturbs no other
 * file, and every file runs beside the unit and infra files instead of after them.
 */
const onLocalStacks = {
  setupFiles: [...EXAMPLE_PRICES, 'test/support/stack-clock.ts'],
  globalSetup: ['test/support/local-stack.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/**
 * The files that run longest (a minute or more of wall time each on two cores), started before
 * every other file so that none of them is left running alone at the end (test/support/sequencer.ts).
 * monitoring-jobs and crash-recovery come first, together: they start their project's two stacks.
 */
const LONG_FILES = [
  'test/http/crash-recovery.test.ts',
  'test/http/monitoring-jobs.test.ts',
  'test/unit/new-capability.test.ts',
  'test/http/docs.test.ts',
  'test/http/monitoring.test.ts',
  'test/http/third-party-client.test.ts',
  'test/http/console-pages.test.ts',
  'test/http/keys-cli.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default'],
    sequence: { sequencer: longFilesFirst(LONG_FILES, 'infra') },
    // At least two files at once (vitest's default is a core less than the machine has: one on two
    // cores). An HTTP file mostly waits on its stack (the main process and DynamoDB Local).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: EXAMPLE_PRICES,
          // One DynamoDB Local for the files that need one (test/support/dynamo.ts).
          globalSetup: ['test/support/shared-dynamo.ts'],
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // A worker runs file after file in one module graph, so each app is synthesized once per
          // worker, not once per file (test/infra/synth.ts).
          isolate: false,
          setupFiles: EXAMPLE_PRICES,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'http',
          include: ['test/http/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_STACKS],
          ...onLocalStacks,
        },
      },
      { test: { name: 'http-own-stacks', include: OWN_STACKS, ...onLocalStacks } },
    ],
  },
});
