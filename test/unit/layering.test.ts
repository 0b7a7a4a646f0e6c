import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency direction of shared/ (docs/architecture.md, "The layers"): app → capabilities →
 * kernel; adapters → capability ports and the kernel; composition → adapters. Read from the
 * relative imports of every module, so a new import that breaks it fails here.
 */
const SHARED = resolve(import.meta.dirname, '../../shared');
const LAYERS = new Set(['kernel', 'app', 'adapters', 'composition']);

/** `typeOnly`: an `import type` (no run-time dependency). */
type Edge = { from: string; to: string; typeOnly?: boolean };

function modulesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...modulesUnder(path));
    else if (name.endsWith('.ts')) found.push(path);
  }
  return found;
}

const SPECIFIER =
  /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g;

/** Every relative import inside shared/, as paths relative to shared/. */
function importsOf(root: string): Edge[] {
  const edges: Edge[] = [];
  for (const file of modulesUnder(root)) {
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), (match[1] ?? match[2] ?? match[3]) as string);
      if (!target.startsWith(root + sep)) continue;
      edges.push({
        from: relative(root, file).split(sep).join('/'),
        to: relative(root, target).split(sep).join('/'),
        typeOnly: /^(?:import|export)\s+type\s/.test(match[0]),
      });
    }
  }
  return edges;
}

/** The folder a module is in, `depth` levels below shared/ (a module directly in a folder: that folder). */
const folderOf = (path: string, depth = 1) => {
  const parts = path.split('/').slice(0, -1);
  return parts.length < depth ? undefined : parts.slice(0, depth).join('/');
};

/** Folder-level cycles (of any length), each as the list of folders it passes through. */
function folderCycles(edges: readonly Edge[], folder: (path: string) => string | undefined): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = folder(from);
    const b = folder(to);
    if (!a || !b || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)?.add(b);
  }
  // Tarjan's strongly connected components: each with more than one folder is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

const isCapability = (folder: string | undefined) => folder !== undefined && !LAYERS.has(folder);
/**
 * A capability's composition (`<capability>/composition.ts`: its ports' factories, or some of them
 * in `<capability>/composition/` when its functions need them apart) and its own adapters
 * (`<capability>/adapters/`) sit with the composition and adapter layers, not with its use cases:
 * only functions and the local stack import them.
 */
const isCapabilityComposition = (path: string) =>
  isCapability(folderOf(path)) && /^[^/]+\/(?:composition\.ts|composition\/|adapters\/)/.test(path);
/** A capability's own adapters (`<capability>/adapters/`), which only the composition layer builds. */
const isCapabilityAdapter = (path: string) =>
  isCapabilityComposition(path) && /^[^/]+\/adapters\//.test(path);
/** The node of a module in the folder graph: its folder, its capability's composition or adapters apart. */
const nodeOf = (path: string) =>
  isCapabilityComposition(path)
    ? `${folderOf(path)}/${path.split('/')[1]?.replace('.ts', '')}`
    : folderOf(path);
const isPort = (path: string) => path.endsWith('-port.ts') || path.startsWith('kernel/');
/**
 * A capability's local wiring (`<capability>/local/`, named by `infrastructure.local`): a part of the
 * local stack kept in the capability's folder, as its `cdk/` is a part of lib/. Like local/, it may
 * import any capability (monitoring's jobs count their charges in the spend caps), so its imports
 * are left out of the layers of shared/ and checked on their own (below).
 */
const isCapabilityLocal = (path: string) => isCapability(folderOf(path)) && /^[^/]+\/local\//.test(path);
const describeEdge = ({ from, to }: Edge) => `${from} → ${to}`;

describe('the cycle check itself', () => {
  it('finds two folders that import each other, and a longer cycle', () => {
    const edges = [
      { from: 'a/x.ts', to: 'b/y.ts' },
      { from: 'b/y.ts', to: 'a/z.ts' },
      { from: 'c/x.ts', to: 'd/x.ts' },
      { from: 'd/x.ts', to: 'e/x.ts' },
      { from: 'e/x.ts', to: 'c/y.ts' },
      { from: 'f/x.ts', to: 'a/x.ts' },
    ];
    expect(folderCycles(edges, (path) => folderOf(path))).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('finds none in a one-way graph', () => {
    const edges = [
      { from: 'app/x.ts', to: 'orders/y.ts' },
      { from: 'orders/y.ts', to: 'kernel/z.ts' },
      { from: 'app/x.ts', to: 'kernel/z.ts' },
    ];
    expect(folderCycles(edges, (path) => folderOf(path))).toEqual([]);
  });
});

describe('the dependency direction of shared/', () => {
  const edges = importsOf(SHARED).filter(({ from }) => !isCapabilityLocal(from));

  it('reads the imports of every folder', () => {
    const folders = new Set(edges.map(({ from }) => folderOf(from)));
    for (const folder of ['kernel', 'app', 'adapters', 'composition', 'companies', 'extracts', 'orders']) {
      expect(folders).toContain(folder);
    }
  });

  it('has no two folders of shared/ importing each other, directly or round a longer cycle', () => {
    expect(folderCycles(edges, nodeOf)).toEqual([]);
  });

  it('has no cycle of any length between the folders directly under shared/, a capability counted whole with its composition and adapters', () => {
    // What the before-stop check (folder-cycles.mjs) reads: the top-level folders alone.
    const cycles = folderCycles(edges, (path) => folderOf(path));
    expect(cycles).toEqual([]);
  });

  it('has no cycle between the folders inside the kernel or the adapters', () => {
    const inside = (top: string) => (path: string) =>
      path.startsWith(`${top}/`) ? folderOf(path, 2) : undefined;
    expect(folderCycles(edges, inside('kernel'))).toEqual([]);
    expect(folderCycles(edges, inside('adapters'))).toEqual([]);
  });

  it('has no import cycle of modules running through a capability (its composition and adapters included) and the technology adapters', () => {
    // A capability's composition builds technology adapters, which implement the capability's ports
    // and may use its domain modules: a one-way path through the modules, never back. (As folders,
    // the composition and the capability's own adapters are a layer of their own: the check above.)
    const cycles = folderCycles(edges, (path) => path).filter(
      (cycle) =>
        cycle.some((path) => folderOf(path) === 'adapters') &&
        cycle.some((path) => isCapability(folderOf(path))),
    );
    expect(cycles).toEqual([]);
  });

  it('keeps the kernel free of capabilities, adapters, the app and the composition', () => {
    const outward = edges.filter(({ from, to }) => folderOf(from) === 'kernel' && folderOf(to) !== 'kernel');
    expect(outward.map(describeEdge)).toEqual([]);
  });

  it('keeps capabilities free of adapters, the composition and the app above them', () => {
    const upward = edges.filter(
      ({ from, to }) =>
        isCapability(folderOf(from)) &&
        !isCapabilityComposition(from) &&
        (['adapters', 'composition', 'app'].includes(folderOf(to) ?? '') || isCapabilityComposition(to)),
    );
    expect(upward.map(describeEdge)).toEqual([]);
  });

  it('lets only the list of capabilities import a capability module, which imports only the kernel and its own folder', () => {
    const importers = edges.filter(
      ({ to }) => /^[^/]+\/capability\.ts$/.test(to) && isCapability(folderOf(to)),
    );
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter(({ from }) => from !== 'app/capabilities.ts').map(describeEdge)).toEqual([]);
    const outward = edges.filter(
      ({ from, to }) =>
        /^[^/]+\/capability\.ts$/.test(from) &&
        isCapability(folderOf(from)) &&
        folderOf(to) !== 'kernel' &&
        (folderOf(to) !== folderOf(from) || isCapabilityComposition(to)),
    );
    expect(outward.map(describeEdge)).toEqual([]);
  });

  it('keeps the composition and adapters of a capability out of shared/: only functions, the local stack and the composition layer (the Lambda root, a capability composition) import them', () => {
    const inward = edges.filter(
      ({ from, to }) =>
        isCapabilityComposition(to) &&
        folderOf(from) !== 'composition' &&
        !(isCapabilityComposition(from) && (folderOf(from) === folderOf(to) || !isCapabilityAdapter(from))),
    );
    expect(inward.map(describeEdge)).toEqual([]);
  });

  it("keeps the composition and adapters of a capability on its own folder, the technology adapters, the kernel, other capabilities' ports and the capabilities its own modules use (and, for its composition, their adapters)", () => {
    /** A capability whose modules (composition and adapters aside) import something of `to`'s capability. */
    const usedByDomain = (from: string, to: string) =>
      edges.some(
        (edge) =>
          folderOf(edge.from) === folderOf(from) &&
          !isCapabilityComposition(edge.from) &&
          folderOf(edge.to) === folderOf(to) &&
          !isCapabilityComposition(edge.to),
      );
    const leaks = edges.filter(
      ({ from, to }) =>
        isCapabilityComposition(from) &&
        folderOf(to) !== folderOf(from) &&
        !['kernel', 'adapters'].includes(folderOf(to) ?? '') &&
        !isPort(to) &&
        !(isCapabilityAdapter(to) && !isCapabilityAdapter(from)) &&
        // Its adapters add no capability its domain does not already depend on (the sandbox's
        // companies read the code tables, as companies' extracts do).
        !(usedByDomain(from, to) && !isCapabilityComposition(to)),
    );
    expect(leaks.map(describeEdge)).toEqual([]);
  });

  it('keeps ports free of use cases: a port imports only ports and the kernel (and record types of its own capability)', () => {
    const leaks = edges.filter(
      ({ from, to, typeOnly }) =>
        isPort(from) &&
        isCapability(folderOf(from)) &&
        !isPort(to) &&
        !(typeOnly && folderOf(to) === folderOf(from)),
    );
    expect(leaks.map(describeEdge)).toEqual([]);
  });

  it('has one rule for where ports live: a capability declares its ports in its *-port.ts modules, the kernel under kernel/ports/', () => {
    const fromPorts = edges.filter(({ from }) => from === 'app/ports.ts');
    const elsewhere = fromPorts.filter(
      // The kernel's own types (an environment, a clock) come from the kernel; the whole registry from app/registry.ts.
      ({ to }) => !to.endsWith('-port.ts') && folderOf(to) !== 'kernel' && to !== 'app/registry.ts',
    );
    expect(fromPorts.length).toBeGreaterThan(5);
    expect(elsewhere.map(describeEdge)).toEqual([]);
  });

  it('keeps adapters free of the composition', () => {
    const upward = edges.filter(
      ({ from, to }) => folderOf(from) === 'adapters' && folderOf(to) === 'composition',
    );
    expect(upward.map(describeEdge)).toEqual([]);
  });
});

describe('the CDK app under lib/', () => {
  const LIB = resolve(import.meta.dirname, '../../lib');

  it('has no two modules importing each other, not even for a type, directly or round a longer cycle', () => {
    const edges = importsOf(LIB);
    expect(edges.map(describeEdge)).toContain('settings.ts → stages.ts');
    expect(folderCycles(edges, (path) => path)).toEqual([]);
  });

  it("binds routes and builds the stage with no capability's module: the stacks import only the kernel and the app from shared/", () => {
    const stacks = ['api-stack.ts', 'api-area-stack.ts'].map((name) => join(LIB, name));
    const fromShared = stacks.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
        .map((match) => resolve(dirname(file), (match[1] ?? match[2] ?? match[3]) as string))
        .filter((target) => target.startsWith(SHARED + sep))
        .map((target) => ({
          from: relative(LIB, file),
          to: relative(SHARED, target).split(sep).join('/'),
        })),
    );
    expect(fromShared.map(describeEdge)).toContain('api-area-stack.ts → kernel/config.ts');
    const capabilities = fromShared.filter(
      ({ to }) => !['kernel', 'app'].includes(to.split('/')[0] as string),
    );
    expect(capabilities.map(describeEdge)).toEqual([]);
  });
});

describe('functions reach adapters only through the composition root', () => {
  const FUNCTIONS = resolve(import.meta.dirname, '../../functions');
  /** Every import of a module under shared/ by a function module, as paths relative to the repository. */
  const functionImports = (() => {
    const found: Edge[] = [];
    for (const file of modulesUnder(FUNCTIONS)) {
      for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        const target = resolve(dirname(file), (match[1] ?? match[2] ?? match[3]) as string);
        if (!target.startsWith(SHARED + sep)) continue;
        found.push({
          from: relative(FUNCTIONS, file).split(sep).join('/'),
          to: relative(SHARED, target).split(sep).join('/'),
          typeOnly: /^(?:import|export)\s+type\s/.test(match[0]),
        });
      }
    }
    return found;
  })();

  it('reads the imports of the handlers and the workers', () => {
    const importers = new Set(functionImports.map(({ from }) => from));
    expect(importers).toContain('workers/refresh-reference.ts');
    expect(importers).toContain('workers/fulfilment/compile-pdf.ts');
    expect(functionImports.some(({ to }) => to.startsWith('composition/aws/'))).toBe(true);
  });

  it('no function imports an adapter, not even its types: every adapter is built in shared/composition/ or the composition.ts of its capability', () => {
    const direct = functionImports.filter(
      ({ to }) =>
        folderOf(to) === 'adapters' || (isCapabilityComposition(to) && !/\/composition(?:\.ts|\/)/.test(to)),
    );
    expect(direct.map(describeEdge)).toEqual([]);
  });

  it('no function imports the list of capabilities or a capability module: a function loads only what its route runs', () => {
    const central = functionImports.filter(
      ({ from, to }) =>
        (to === 'app/capabilities.ts' || /^[^/]+\/capability\.ts$/.test(to)) &&
        // The MCP server serves every route as a tool: it reads the whole route table.
        !from.startsWith('mcp/'),
    );
    expect(central.map(describeEdge)).toEqual([]);
  });
});

describe("a capability's CDK (shared/<capability>/cdk/, lib/capability-construct.ts)", () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const CDK = /^shared\/[^/]+\/cdk\//;
  const fromRoot = (file: string) => relative(ROOT, file).split(sep).join('/');
  const modules = ['shared', 'functions', 'local'].flatMap((folder) => modulesUnder(join(ROOT, folder)));

  it('keeps aws-cdk-lib and constructs out of shared/, functions/ and local/, but for a cdk/ folder of a capability', () => {
    const importers = modules
      .filter((file) =>
        /from\s*['"](?:aws-cdk-lib|constructs)(?:\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8')),
      )
      .map(fromRoot);
    expect(importers.filter((path) => CDK.test(path)).length).toBeGreaterThan(3);
    expect(importers.filter((path) => !CDK.test(path))).toEqual([]);
  });

  it('lets no module of shared/, functions/ or local/ import a cdk/ module, but its own folder', () => {
    const leaks: string[] = [];
    for (const file of modules) {
      const from = fromRoot(file);
      for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        const to = fromRoot(resolve(dirname(file), (match[1] ?? match[2] ?? match[3]) as string));
        if (CDK.test(to) && !(CDK.test(from) && dirname(from) === dirname(to))) leaks.push(`${from} → ${to}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('names, in each capability module that has one, a cdk/ module of its own folder that exists', async () => {
    const { capabilityList } = await import('../../shared/app/capabilities.ts');
    const named = capabilityList.flatMap((capability) =>
      capability.infrastructure?.cdk ? [`shared/${capability.name}/${capability.infrastructure.cdk}`] : [],
    );
    expect(named).toEqual(
      expect.arrayContaining([
        'shared/orders/cdk/stack.ts',
        'shared/webhooks/cdk/stack.ts',
        'shared/monitoring/cdk/stack.ts',
        'shared/reference/cdk/stack.ts',
      ]),
    );
    for (const path of named) expect(statSync(join(ROOT, path)).isFile(), path).toBe(true);
  });
});

describe("a capability's local wiring (shared/<capability>/local/, kernel/capability-local.ts)", () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const LOCAL_WIRING = /^shared\/([^/]+)\/local\//;
  const fromRoot = (file: string) => relative(ROOT, file).split(sep).join('/');
  const folders = ['bin', 'clients', 'functions', 'lib', 'local', 'scripts', 'shared', 'test'];
  const imports = folders.flatMap((folder) =>
    modulesUnder(join(ROOT, folder)).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((match) => ({
        from: fromRoot(file),
        to: fromRoot(resolve(dirname(file), (match[1] ?? match[2] ?? match[3]) as string)),
      })),
    ),
  );

  it('is imported only by the local stack, the tests and its own local folder', () => {
    const importers = imports.filter(({ to }) => LOCAL_WIRING.test(to));
    expect(importers.some(({ from }) => from.startsWith('local/') || from.startsWith('test/'))).toBe(true);
    const leaks = importers.filter(
      ({ from, to }) =>
        !from.startsWith('local/') &&
        !from.startsWith('test/') &&
        LOCAL_WIRING.exec(from)?.[1] !== LOCAL_WIRING.exec(to)?.[1],
    );
    expect(leaks.map(describeEdge)).toEqual([]);
  });

  it('is imported by nothing in shared/ outside it, so no function reaches it through a capability', () => {
    const inward = importsOf(SHARED).filter(
      ({ from, to }) =>
        isCapabilityLocal(to) && !(isCapabilityLocal(from) && folderOf(from) === folderOf(to)),
    );
    expect(inward.map(describeEdge)).toEqual([]);
  });

  it('imports nothing of shared/app/, so the folders of shared/ still point one way with it', () => {
    const fromLocal = importsOf(SHARED).filter(({ from }) => isCapabilityLocal(from));
    expect(fromLocal.length).toBeGreaterThan(0);
    expect(fromLocal.filter(({ to }) => folderOf(to) === 'app').map(describeEdge)).toEqual([]);
  });

  it('names, in each capability module that has one, a local/ module of its own folder that exists and exports the shape', async () => {
    const { capabilityList } = await import('../../shared/app/capabilities.ts');
    const named = capabilityList.flatMap((capability) =>
      capability.infrastructure?.local
        ? [`shared/${capability.name}/${capability.infrastructure.local}`]
        : [],
    );
    expect(named).toEqual(
      expect.arrayContaining([
        'shared/orders/local/stack.ts',
        'shared/webhooks/local/stack.ts',
        'shared/monitoring/local/stack.ts',
        'shared/reference/local/stack.ts',
      ]),
    );
    for (const path of named) {
      expect(statSync(join(ROOT, path)).isFile(), path).toBe(true);
      const module = (await import(join(ROOT, path))) as { default?: { start?: unknown } };
      expect(typeof module.default?.start, path).toBe('function');
    }
  });

  it('leaves local/ (the stack and its shared stand-ins) naming no capability that has local wiring', async () => {
    const { capabilityList } = await import('../../shared/app/capabilities.ts');
    const wired = capabilityList.filter((capability) => capability.infrastructure?.local);
    const central = ['local/stack.ts', 'local/server.ts', 'local/start.ts'];
    const named = central.flatMap((path) => {
      const source = readFileSync(join(ROOT, path), 'utf8');
      return wired
        .filter(
          (capability) =>
            source.includes(`shared/${capability.name}/`) || source.includes(`./${capability.name}`),
        )
        .map((capability) => `${path} → ${capability.name}`);
    });
    expect(named).toEqual([]);
  });
});
