/**
 * `npm run docs:sandbox`: rewrites the generated tables of docs/sandbox.md (the organisations and
 * the people, with the case each shows) from the sandbox catalogue. `-- --check` writes nothing and
 * exits 1 when the page is out of date (test/unit/sandbox-docs.test.ts makes the same check).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { withGeneratedSandbox } from '../shared/registry/sandbox-docs.ts';

const PAGE = new URL('../docs/sandbox.md', import.meta.url);

const current = readFileSync(PAGE, 'utf8');
const next = withGeneratedSandbox(current);
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error('docs/sandbox.md is out of date: run npm run docs:sandbox');
    process.exit(1);
  }
  console.log('docs/sandbox.md is up to date');
} else if (next === current) {
  console.log('docs/sandbox.md is already up to date');
} else {
  writeFileSync(PAGE, next);
  console.log('docs/sandbox.md: generated tables rewritten');
}
