/**
 * `npm run docs:sandbox`: rewrites the generated tables of docs/sandbox.md (the organisations and
 * the people, with the case each shows) from the sandbox catalogue. `-- --check` writes nothing and
 * exits 1 when the page is out of date (test/unit/sandbox-docs.test.ts makes the same check).
 */
import { withGeneratedSandbox } from '../shared/composition/registry/sandbox-docs.ts';
import { writeGeneratedPage } from './generated-page.ts';

writeGeneratedPage('docs/sandbox.md', 'npm run docs:sandbox', withGeneratedSandbox);
