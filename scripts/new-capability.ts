/**
 * `npm run new:capability -- NAME`: writes a small working capability from
 * scripts/capability-template/: its folder `shared/NAME/` (capability module, routes, schemas, use
 * cases, ports, errors and their guide, metrics and an alarm, sandbox data, DynamoDB and registry
 * adapters, composition, doc page), its handlers `functions/NAME/` and its tests
 * `test/unit/NAME/` and `test/http/NAME/`, and registers it: one line each in
 * shared/app/capabilities.ts, shared/usage/capability-products.ts (its products, which functions
 * load) and prod's committed prices (lib/stages.ts). Nothing else changes: the route table, the
 * error reference, the price catalogue, CDK (functions, grants, alarms, the registry protocol), the
 * local stack and the OpenAPI generator derive from the lists (docs/architecture.md).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const TEMPLATE = join(import.meta.dirname, 'capability-template');
const LIST = 'shared/app/capabilities.ts';
/** The list of capabilities' products, which functions load (shared/kernel/products.ts). */
const PRODUCTS = 'shared/usage/capability-products.ts';

/** Adds `value` (exported by `from`) after the last import of `list` and at the end of its array. */
function register(root: string, list: string, value: string, from: string) {
  const path = join(root, list);
  const text = readFileSync(path, 'utf8');
  const imports = [...text.matchAll(/^import \{ \w+ \} from '\.\.\/[\w-]+\/[\w-]+\.ts';\n/gm)];
  const last = imports.at(-1);
  const closing = text.match(/\](?: as const satisfies readonly \w+\[\])?;\n/);
  if (!last || !closing || closing.index === undefined || closing.index < (last.index ?? 0))
    throw new Error(`${list} is not in the shape the scaffold edits`);
  const at = (last.index ?? 0) + last[0].length;
  const end = closing.index;
  writeFileSync(
    path,
    `${text.slice(0, at)}import { ${value} } from '${from}';\n${text.slice(at, end).replace(/,?\s*$/, '')}, ${value}${text.slice(end)}`,
  );
}

/** The committed settings of the stages, whose live ones state a price for every product. */
const STAGES = 'lib/stages.ts';

/**
 * Adds the product's price to the last version of prod's committed schedule: like every prod value
 * there, an example an operator confirms before the first deploy (a live stage pricing nothing for a
 * product does not synthesize).
 */
function priceInProd(root: string, product: string, cents: number) {
  const path = join(root, STAGES);
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('const PROD_PRICES');
  const end = text.indexOf('\n      },\n    },\n  ],\n};', start);
  if (start < 0 || end < 0) throw new Error(`${STAGES} is not in the shape the scaffold edits`);
  writeFileSync(path, `${text.slice(0, end)}\n        ${product}: ${cents},${text.slice(end)}`);
}

/** The name's spellings the template uses (`order-notes`: orderNotes, OrderNotes, order_notes…). */
export function spellings(name: string): Record<string, string> {
  if (!/^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*$/.test(name)) {
    throw new Error(`a capability's name is lower-case words joined by hyphens (order-notes), not ${name}`);
  }
  const words = name.split('-');
  const pascal = words.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`).join('');
  const snake = words.join('_');
  return {
    __NAME__: name,
    __CAMEL__: `${pascal.charAt(0).toLowerCase()}${pascal.slice(1)}`,
    __PASCAL__: pascal,
    __SNAKE__: snake,
    __UPPER__: snake.toUpperCase(),
    __PREFIX__: snake,
    __TITLE__: `${words.join(' ').charAt(0).toUpperCase()}${words.join(' ').slice(1)}`,
  };
}

const fill = (text: string, tokens: Record<string, string>) =>
  Object.entries(tokens).reduce((filled, [token, value]) => filled.replaceAll(token, value), text);

function templateFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? templateFiles(path) : [path];
  });
}

/** Where each part of the template goes: its folder, its handlers' folder, its tests' folder. */
const DESTINATIONS: Record<string, (name: string) => string> = {
  shared: (name) => `shared/${name}`,
  functions: (name) => `functions/${name}`,
  test: (name) => `test/unit/${name}`,
  'test-http': (name) => `test/http/${name}`,
};

/** Writes the capability under `root`; returns the files written and the list it registered in. */
export function newCapability(name: string, root = ROOT): string[] {
  const tokens = spellings(name);
  for (const destination of Object.values(DESTINATIONS)) {
    if (existsSync(join(root, destination(name)))) throw new Error(`${destination(name)} exists already`);
  }
  const written: string[] = [];
  for (const file of templateFiles(TEMPLATE)) {
    const [part, ...rest] = relative(TEMPLATE, file).split('/');
    const destination = DESTINATIONS[part as string];
    if (!destination || !file.endsWith('.tmpl')) throw new Error(`unexpected template file ${file}`);
    const target = join(destination(name), ...rest).replace(/\.tmpl$/, '');
    mkdirSync(dirname(join(root, target)), { recursive: true });
    writeFileSync(join(root, target), fill(readFileSync(file, 'utf8'), tokens));
    written.push(target);
  }
  register(root, LIST, `${tokens.__CAMEL__}Capability`, `../${name}/capability.ts`);
  register(root, PRODUCTS, `${tokens.__CAMEL__}Products`, `../${name}/products.ts`);
  priceInProd(root, `${tokens.__SNAKE__}_item`, 50);
  // The project's formatting (line widths depend on the name).
  execFileSync(
    join(ROOT, 'node_modules/.bin/biome'),
    ['check', '--write', ...written, LIST, PRODUCTS, STAGES],
    {
      cwd: root,
      stdio: 'ignore',
    },
  );
  return [...written, LIST, PRODUCTS, STAGES];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const name = process.argv[2];
  if (!name) {
    console.error('usage: npm run new:capability -- NAME (lower-case words joined by hyphens)');
    process.exit(2);
  }
  for (const file of newCapability(name)) console.log(`wrote ${file}`);
  console.log(
    `\nNext: npx vitest run test/unit/${name}; npm start serves its routes (unpublished until you remove \`internal\` and run npm run openapi).`,
  );
}
