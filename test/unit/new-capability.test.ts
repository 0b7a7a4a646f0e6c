import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCapability, spellings } from '../../scripts/new-capability.ts';
import type { WholeProjectTypecheckReport } from '../../scripts/test.ts';

/**
 * `npm run new:capability -- NAME` on a copy of this checkout (its files as they are, with
 * node_modules linked): the capability is its folders and one registration, and it compiles,
 * passes its own tests and keeps the layering. Not the whole suite (too slow here): npm test runs
 * the generated unit and HTTP tests when a capability is really added. About a minute of CPU, most
 * of it tsc over the whole project (which stands for `npm test`'s own type check of the project,
 * scripts/test.ts); minutes of wall time when the machine is shared.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=scaffold', '-c', 'user.email=scaffold@test', ...args], {
    cwd,
    encoding: 'utf8',
  });

describe('npm run new:capability', () => {
  let copy: string;
  let written: string[];

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'new-capability-'));
    const files = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard')
      .split('\0')
      .filter(Boolean);
    for (const file of files) {
      try {
        cpSync(join(ROOT, file), join(copy, file), { recursive: false });
      } catch (error) {
        // A file deleted in the working tree but still in the index.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    git(copy, 'init', '-q');
    git(copy, 'add', '-A');
    git(copy, 'commit', '-qm', 'the checkout as it is');
    written = newCapability('order-notes', copy);
  }, 120_000);

  // Removing the copy's thousands of files took more than vitest's 10 s on a loaded machine.
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  }, 60_000);

  it('spells the name as the template needs, and refuses a name that is not lower-case words', () => {
    expect(spellings('order-notes')).toMatchObject({
      __CAMEL__: 'orderNotes',
      __PASCAL__: 'OrderNotes',
      __SNAKE__: 'order_notes',
      __UPPER__: 'ORDER_NOTES',
    });
    expect(() => spellings('Order_Notes')).toThrow(/lower-case words/);
    expect(() => newCapability('order-notes', copy)).toThrow(/exists already/);
  });

  it("writes its folders and changes at most three files outside them: the two lists and prod's prices", () => {
    const status = git(copy, 'status', '--porcelain', '--untracked-files=normal').trimEnd().split('\n');
    const own = [
      'shared/order-notes/',
      'functions/order-notes/',
      'test/unit/order-notes/',
      'test/http/order-notes/',
    ];
    expect(status.filter((line) => line.startsWith('??')).sort()).toEqual(
      own.map((folder) => `?? ${folder}`).sort(),
    );
    const outside = status.filter((line) => !line.startsWith('??'));
    expect(outside).toEqual([
      ' M lib/stages.ts',
      ' M shared/app/capabilities.ts',
      ' M shared/usage/capability-products.ts',
    ]);
    expect(outside.length).toBeLessThanOrEqual(3);
    // One import and one entry in each list; one price in prod's schedule.
    expect(git(copy, 'diff', '--numstat', 'shared/app/capabilities.ts').trim()).toMatch(/^\d+\t[01]\t/);
    expect(git(copy, 'diff', '--numstat', 'shared/usage/capability-products.ts').trim()).toMatch(
      /^\d+\t[01]\t/,
    );
    expect(git(copy, 'diff', '-U0', 'lib/stages.ts')).toMatch(/^\+\s+order_notes_item: 50,$/m);
    expect(written).toContain('shared/order-notes/capability.ts');
    expect(new Set(written.map((file) => dirname(file).split('/').slice(0, 2).join('/')))).toEqual(
      new Set([
        'shared/order-notes',
        'functions/order-notes',
        'test/unit',
        'test/http',
        'shared/app',
        'shared/usage',
        'lib',
      ]),
    );
  });

  it('compiles, passes its own tests and the layering test, and lints clean', () => {
    const run = (command: string, ...args: string[]) =>
      execFileSync(join(copy, 'node_modules/.bin', command), args, {
        cwd: copy,
        encoding: 'utf8',
        stdio: 'pipe',
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      });
    // The copy is the whole project and more, so this is `npm test`'s type check of the project
    // too: scripts/test.ts reads the outcome instead of running `tsc --noEmit` a second time.
    const report = (result: WholeProjectTypecheckReport) => {
      const file = process.env.WHOLE_PROJECT_TYPECHECK_REPORT;
      if (file) writeFileSync(file, JSON.stringify(result));
    };
    try {
      run('tsc', '--noEmit');
      report({ code: 0, output: '' });
    } catch (error) {
      const failed = error as { status?: number | null; stdout?: string; stderr?: string };
      report({ code: failed.status ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` });
      throw error;
    }
    run(
      'biome',
      'check',
      'shared/order-notes',
      'functions/order-notes',
      'test/unit/order-notes',
      'test/http/order-notes',
      'shared/app',
      'shared/usage',
      'lib/stages.ts',
    );
    const output = run(
      'vitest',
      'run',
      '--project',
      'unit',
      'test/unit/order-notes',
      'test/unit/layering.test.ts',
      'test/unit/errors.test.ts',
    );
    // A failing file fails the command (it throws); the three ran.
    expect(output).toMatch(/Test Files\s+3 passed/);
  }, 600_000);

  it('declares its area in its capability module, which reaches its own stack and the contract generator', () => {
    // Read in the copy, as CDK (lib/routes.ts) and `npm run openapi` (the document's tags) read it.
    const probeDir = mkdtempSync(join(tmpdir(), 'new-capability-probe-'));
    const probe = join(probeDir, 'probe.mts');
    writeFileSync(
      probe,
      [
        `const { ROUTE_AREAS } = await import(${JSON.stringify(join(copy, 'lib/routes.ts'))});`,
        `const { TAGS } = await import(${JSON.stringify(join(copy, 'shared/app/openapi/document.ts'))});`,
        'const names = (routes) => routes.map((route) => route.name);',
        'console.log(JSON.stringify({',
        '  stacks: ROUTE_AREAS.map((area) => [area.name, names(area.routes)]),',
        '  tags: TAGS.map((tag) => [tag.name, names(tag.routes)]),',
        '}));',
      ].join('\n'),
    );
    let read: string;
    try {
      read = execFileSync(join(copy, 'node_modules/.bin/tsx'), [probe], { cwd: copy, encoding: 'utf8' });
    } finally {
      rmSync(probeDir, { recursive: true, force: true });
    }
    const { stacks, tags } = JSON.parse(read) as { stacks: [string, string[]][]; tags: [string, string[]][] };
    const own = ['GetOrderNotesItem', 'CreateOrderNotesItem'];
    // Its order (95): after Monitoring, before the console's areas.
    const names = stacks.map(([name]) => name);
    expect(names.indexOf('OrderNotes')).toBeGreaterThan(names.indexOf('Monitoring'));
    expect(names.indexOf('OrderNotes')).toBeLessThan(names.indexOf('Console'));
    expect(names.indexOf('Monitoring')).toBeGreaterThan(-1);
    expect(stacks.find(([name]) => name === 'OrderNotes')?.[1].sort()).toEqual(own.sort());
    expect(tags.find(([name]) => name === 'OrderNotes')?.[1].sort()).toEqual(own.sort());
  }, 120_000);
});
