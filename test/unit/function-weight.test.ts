import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../lib/bundling.ts';
import { routes } from '../../shared/app/routes.ts';

/**
 * Each function bundles what its route runs (docs/decisions/0079-function-weight.md): modules
 * one area shares with another are kept apart from what only one route needs, so reading a
 * monitor does not bundle the company lookup monitor creation makes, and a webhook or usage read
 * does not build every company schema.
 */
const mustNotCarry: Record<string, readonly RegExp[]> = {
  [routes.getMonitor.name]: [/^shared\/companies\/extracts\.ts$/, /^shared\/monitoring\/snapshot\.ts$/],
  [routes.listMonitors.name]: [/^shared\/companies\/extracts\.ts$/, /^shared\/monitoring\/snapshot\.ts$/],
  [routes.updateMonitor.name]: [/^shared\/companies\/extracts\.ts$/, /^shared\/monitoring\/snapshot\.ts$/],
  [routes.deleteMonitor.name]: [/^shared\/companies\/extracts\.ts$/, /^shared\/monitoring\/snapshot\.ts$/],
  [routes.getWebhookEndpoint.name]: [/^shared\/companies\//],
  [routes.listEvents.name]: [/^shared\/companies\//],
  [routes.createWebhookEndpoint.name]: [/^shared\/companies\//],
  [routes.getUsage.name]: [/^shared\/companies\/schemas\.ts$/, /^shared\/monitoring\/jobs\.ts$/],
};

/** Modules the named routes' functions do bundle: the checks above look at real bundles. */
const mustCarry: Record<string, RegExp> = {
  [routes.createMonitor.name]: /^shared\/monitoring\/creation\.ts$/,
  [routes.getUsage.name]: /^shared\/usage\/schemas\.ts$/,
};

describe('what a function bundles', () => {
  it('leaves out what its route does not run', async () => {
    const names = [...new Set([...Object.keys(mustNotCarry), ...Object.keys(mustCarry)])];
    const entries = Object.values(routes).filter((route) => names.includes(route.name));
    expect(entries.map((route) => route.name).sort()).toEqual([...names].sort());
    const { metafile } = await build({
      ...esbuildOptions,
      sourcemap: false,
      write: false,
      metafile: true,
      entryPoints: Object.fromEntries(entries.map((route) => [route.name, `functions/${route.handler}.ts`])),
      outdir: 'bundles',
    });
    const inputsOf = (name: string) => Object.keys(metafile.outputs[`bundles/${name}.js`]?.inputs ?? {});
    for (const [name, patterns] of Object.entries(mustNotCarry)) {
      const inputs = inputsOf(name);
      expect(inputs.length, name).toBeGreaterThan(0);
      for (const pattern of patterns)
        expect(
          inputs.filter((input) => pattern.test(input)),
          name,
        ).toEqual([]);
    }
    for (const [name, pattern] of Object.entries(mustCarry)) {
      expect(inputsOf(name).filter((input) => pattern.test(input)).length, name).toBe(1);
    }
  }, 120_000);
});
