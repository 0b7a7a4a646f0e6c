/**
 * The MCP server as the central places see it (shared/kernel/capability.ts): its area. Its tools
 * are every route of the route table, which its function reads (functions/mcp/post.ts), not this module.
 */
import { defineCapability } from '../kernel/capability.ts';
import { mcpRoutes } from './routes.ts';

export const mcpCapability = defineCapability({
  name: 'mcp',
  areas: [
    {
      name: 'Mcp',
      tag: 'MCP',
      description:
        'The MCP server at /mcp: the routes as tools for AI agents, paid tools in two steps (docs/mcp.md).',
      order: 120,
      routes: [mcpRoutes],
    },
  ],
});
