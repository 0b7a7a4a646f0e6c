import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../lib/bundling.ts';
import { shakableModules, unshakable, wrap } from '../../scripts/shakable.ts';
import { routes } from '../../shared/app/routes.ts';

/** A function builds only the routes and schemas it uses (docs/decisions/0108-routes-built-on-use.md). */
describe('the route and schema modules', () => {
  it('build every top-level value through shakable (npm run shakable wraps the others)', () => {
    const modules = shakableModules();
    expect(modules).toContain('shared/orders/routes.ts');
    expect(modules).toContain('shared/companies/shared-schemas.ts');
    expect(modules).toContain('shared/kernel/http/schemas.ts');
    const found = modules.flatMap((path) =>
      unshakable(path, readFileSync(path, 'utf8')).map((value) => `${path}: ${value.name}`),
    );
    expect(found).toEqual([]);
  });

  it('wrap a built value and leave literals and functions alone', () => {
    const source = [
      "import * as z from 'zod/mini';",
      'const free = { status: 200, billable: false } as const;',
      'const text = (type: string) => z.string();',
      'export const path = z.strictObject({ id: z.string() });',
      'export const spread = { ...free };',
    ].join('\n');
    const wrapped = wrap('shared/orders/schemas.ts', source);
    expect(unshakable('shared/orders/schemas.ts', source).map((value) => value.name)).toEqual([
      'path',
      'spread',
    ]);
    expect(wrapped).toContain("import { shakable } from '../kernel/shakable.ts';");
    expect(wrapped).toContain(
      'export const path = /* @__PURE__ */ shakable(() => z.strictObject({ id: z.string() }));',
    );
    expect(wrapped).toContain('export const spread = /* @__PURE__ */ shakable(() => ({ ...free }));');
    expect(wrapped).toContain('const free = { status: 200, billable: false } as const;');
    expect(wrapped).toContain('const text = (type: string) => z.string();');
    expect(unshakable('shared/orders/schemas.ts', wrapped)).toEqual([]);
  });
});

describe("a route's function", () => {
  it("bundles its own route and leaves out its area's other routes", async () => {
    const cases = [
      {
        own: routes.getOrder,
        others: [routes.listOrders, routes.orderChargesExtract, routes.createOfflineSearch],
      },
      {
        own: routes.listMonitors,
        others: [routes.createMonitor, routes.importMonitors, routes.listMonitorEvents],
      },
      { own: routes.getCompany, others: [routes.purchaseCompanyExtract, routes.listOfficeholders] },
    ];
    const { outputFiles } = await build({
      ...esbuildOptions,
      sourcemap: false,
      write: false,
      entryPoints: Object.fromEntries(cases.map(({ own }) => [own.name, `functions/${own.handler}.ts`])),
      outdir: 'bundles',
    });
    for (const { own, others } of cases) {
      const text = outputFiles.find((file) => file.path.endsWith(`/bundles/${own.name}.js`))?.text ?? '';
      expect(text, own.name).toContain(`"${own.name}"`);
      for (const other of others)
        expect(text.includes(`"${other.name}"`), `${own.name} carries ${other.name}`).toBe(false);
    }
  }, 120_000);
});
