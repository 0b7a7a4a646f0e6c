/**
 * Writes the MCP server's tools (their `tools/list` answer and how to call each,
 * shared/mcp/tools.ts) to the file named on the command line: lib/bundling.ts runs it after
 * bundling the MCP function, which reads that file rather than building every route's JSON Schema
 * at start.
 */
import { writeFileSync } from 'node:fs';
import { routeList } from '../shared/app/routes.ts';
import { catalogueOf, toolsOf } from '../shared/mcp/tools.ts';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx scripts/mcp-tools.ts <file to write>');
writeFileSync(file, JSON.stringify(catalogueOf(toolsOf(routeList))));
