/**
 * What the `npm run docs:*` scripts share: rewrite a page's generated part, or with `-- --check`
 * write nothing and exit 1 when the committed page is out of date (the unit tests of each page
 * make the same check).
 */
import { readFileSync, writeFileSync } from 'node:fs';

export function writeGeneratedPage(page: string, command: string, generate: (text: string) => string): void {
  const file = new URL(`../${page}`, import.meta.url);
  const current = readFileSync(file, 'utf8');
  const next = generate(current);
  if (process.argv.includes('--check')) {
    if (next !== current) {
      console.error(`${page} is out of date: run ${command}`);
      process.exit(1);
    }
    console.log(`${page} is up to date`);
  } else if (next === current) {
    console.log(`${page} is already up to date`);
  } else {
    writeFileSync(file, next);
    console.log(`${page}: generated part rewritten`);
  }
}
