/**
 * `npm run shakable` (`-- --check` only reports): keeps the route and schema modules tree-shakable.
 * A Lambda bundle evaluates every top-level statement of every module it bundles, and esbuild
 * drops a top-level value only when nothing uses it and building it can have no side effect; a
 * zod schema is built by calls, which esbuild must assume have some. So in the modules listed
 * here each such value is built through `shakable` (shared/kernel/shakable.ts) under a
 * `/* @__PURE__ *\/` annotation: a function bundles and builds only the routes and schemas it
 * uses (docs/decisions/0108-routes-built-on-use.md). This script wraps the values that are not
 * yet; test/unit/shakable.test.ts fails on any it would wrap.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** In every capability's folder: its route table and its schemas. */
const EACH_CAPABILITY = ['routes.ts', 'schemas.ts', 'shared-schemas.ts', 'identifier-schemas.ts'];
/** Other modules that build schemas the routes use. */
const ALSO = [
  'shared/app/extract-routes.ts',
  'shared/kernel/http/schemas.ts',
  'shared/kernel/document-numbers.ts',
  'shared/people/person-names.ts',
  'shared/orders/delivery.ts',
];

/** The modules a route's function bundles for its route table and schemas. */
export const shakableModules = (root = '.'): string[] =>
  [
    ...readdirSync(join(root, 'shared'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'app')
      .flatMap((entry) => EACH_CAPABILITY.map((file) => `shared/${entry.name}/${file}`)),
    ...ALSO,
  ]
    .filter((path) => existsSync(join(root, path)))
    .sort();

const WRAPPER = 'shakable';
const PURE = '/* @__PURE__ */';

const isWrapped = (initializer: ts.Expression, text: string): boolean =>
  ts.isCallExpression(initializer) &&
  ts.isIdentifier(initializer.expression) &&
  initializer.expression.text === WRAPPER &&
  text.slice(initializer.getFullStart(), initializer.getStart()).includes('@__PURE__');

/**
 * Whether esbuild may have to keep a value though nothing uses it: it calls something, spreads,
 * reads a property or turns a value into a string (functions' bodies aside: they run later).
 */
const mayHaveSideEffects = (node: ts.Node): boolean => {
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return false;
  if (
    ts.isCallExpression(node) ||
    ts.isNewExpression(node) ||
    ts.isSpreadAssignment(node) ||
    ts.isSpreadElement(node) ||
    ts.isPropertyAccessExpression(node) ||
    ts.isElementAccessExpression(node) ||
    ts.isTemplateExpression(node) ||
    ts.isTaggedTemplateExpression(node)
  )
    return true;
  return ts.forEachChild(node, (child) => (mayHaveSideEffects(child) ? true : undefined)) ?? false;
};

/** The top-level values of a module that are built but not through `shakable`. */
export const unshakable = (path: string, text: string): { name: string; start: number; end: number }[] => {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; start: number; end: number }[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (!init || isWrapped(init, text) || !mayHaveSideEffects(init)) continue;
      found.push({
        name: declaration.name.getText(source),
        start: init.getStart(source),
        end: init.getEnd(),
      });
    }
  }
  return found;
};

/** Wraps each of them: `value` becomes `/* @__PURE__ *\/ shakable(() => value)`, importing `shakable`. */
export const wrap = (path: string, text: string): string => {
  const values = unshakable(path, text);
  if (values.length === 0) return text;
  let out = text;
  for (const { start, end } of [...values].reverse()) {
    const value = out.slice(start, end);
    const body = value.trimStart().startsWith('{') ? `(${value})` : value;
    out = `${out.slice(0, start)}${PURE} ${WRAPPER}(() => ${body})${out.slice(end)}`;
  }
  if (!/import \{[^}]*\bshakable\b[^}]*\} from/.test(out)) {
    const specifier = relative(dirname(path), 'shared/kernel/shakable.ts');
    const source = ts.createSourceFile(path, out, ts.ScriptTarget.Latest, true);
    const lastImport = [...source.statements].reverse().find(ts.isImportDeclaration);
    const at = lastImport ? lastImport.getEnd() : 0;
    out = `${out.slice(0, at)}\nimport { shakable } from '${specifier.startsWith('.') ? '' : './'}${specifier}';${out.slice(at)}`;
  }
  return out;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let count = 0;
  for (const path of shakableModules()) {
    const text = readFileSync(path, 'utf8');
    const values = unshakable(path, text);
    count += values.length;
    for (const value of values) console.log(`${path}: ${value.name}`);
    if (!check && values.length > 0) writeFileSync(path, wrap(path, text));
  }
  console.log(`${count} value(s) ${check ? 'not shakable' : 'wrapped (run npm run format)'}`);
  if (check && count > 0) process.exitCode = 1;
}
