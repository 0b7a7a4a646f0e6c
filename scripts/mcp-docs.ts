/**
 * `npm run docs:mcp`: rewrites the tools table of docs/mcp.md from the route table. `-- --check`
 * writes nothing and exits 1 when the page is out of date (test/unit/mcp-tools.test.ts checks too).
 */
import { routeList } from '../shared/app/routes.ts';
import { withGeneratedTools } from '../shared/mcp/docs.ts';
import { writeGeneratedPage } from './generated-page.ts';

writeGeneratedPage('docs/mcp.md', 'npm run docs:mcp', (page) => withGeneratedTools(page, routeList));
