/**
 * `npm run new:capability -- NAME`: writes a small working capability from
 * scripts/capability-template/: its folder `shared/NAME/` (capability module, routes, schemas, use
 * cases, ports, errors and their guide, metrics and an alarm, sandbox data, DynamoDB and registry
 * adapters, composition, doc page), its handlers `functions/NAME/` and its tests
 * `test/unit/NAME/` and `test/http/NAME/`, and registers it with one line in shared/app/capabilities.ts. Nothing else
 * changes: the route table, the error reference, CDK (functions, grants, alarms), the local stack
 * and the OpenAPI generator derive from the list (docs/architecture.md, "Where to start a change").
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const TEMPLATE = join(import.meta.dirname, 'capability-template');
const LIST = 'shared/app/capabilities.ts';

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
  const listPath = join(root, LIST);
  const list = readFileSync(listPath, 'utf8');
  const capability = `${tokens.__CAMEL__}Capability`;
  const imports = [...list.matchAll(/^import \{ \w+ \} from '\.\.\/[\w-]+\/capability\.ts';\n/gm)];
  const last = imports.at(-1);
  const closing = '] as const satisfies readonly Capability[];';
  if (!last || !list.includes(closing)) throw new Error(`${LIST} is not in the shape the scaffold edits`);
  const at = (last.index ?? 0) + last[0].length;
  writeFileSync(
    listPath,
    // The list may be on one line or, once long, one entry a line with a trailing comma.
    `${list.slice(0, at)}import { ${capability} } from '../${name}/capability.ts';\n${list.slice(at)}`.replace(
      /,?\s*(\] as const satisfies readonly Capability\[\];)/,
      `, ${capability}$1`,
    ),
  );
  // The project's formatting (line widths depend on the name).
  execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['check', '--write', ...written, LIST], {
    cwd: root,
    stdio: 'ignore',
  });
  return [...written, LIST];
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
