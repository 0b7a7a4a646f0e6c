/**
 * `npm run docs:registry`: rewrites the operations table of docs/registry-protocol.md from the
 * protocol table (shared/adapters/registry-http/protocol.ts). `-- --check` writes nothing and exits
 * 1 when the page is out of date (test/unit/registry-protocol.test.ts makes the same check).
 */
import { withGeneratedProtocol } from '../shared/composition/registry/protocol-docs.ts';
import { writeGeneratedPage } from './generated-page.ts';

writeGeneratedPage('docs/registry-protocol.md', 'npm run docs:registry', withGeneratedProtocol);
