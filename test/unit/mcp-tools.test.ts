import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routeList } from '../../shared/app/routes.ts';
import { defineRoute } from '../../shared/kernel/http/route.ts';
import { noQuery } from '../../shared/kernel/http/schemas.ts';
import { withGeneratedTools } from '../../shared/mcp/docs.ts';
import { toolsOf } from '../../shared/mcp/tools.ts';

/** Tools are derived from whatever route list they are given (issue 43 part 2). */

const synthetic = defineRoute({
  name: 'WeighWidget',
  method: 'POST',
  path: '/v1/widgets/{widgetId}/weighings',
  handler: 'widgets/weigh',
  summary: 'Weigh a widget',
  request: {
    path: z.strictObject({ widgetId: z.string() }),
    query: noQuery,
    body: z.strictObject({ unit: z.enum(['g', 'kg']), note: z.optional(z.string()) }),
  },
  response: z.object({ grams: z.number() }),
  status: 201,
  billable: true,
  product: 'widget_weighing',
  idempotent: true,
  ports: ['registryFor'],
  errors: [],
});

describe('tools of a route list', () => {
  it('a new route becomes a quote and a buy tool, with its schemas and annotations', () => {
    const tools = toolsOf([synthetic]);
    expect(tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['quote_weigh_widget', 'quote'],
      ['weigh_widget', 'buy'],
    ]);
    const [quote, buy] = tools;
    expect(quote?.inputSchema).toEqual({
      type: 'object',
      properties: {
        widgetId: { type: 'string' },
        unit: { type: 'string', enum: ['g', 'kg'] },
        note: { type: 'string' },
      },
      required: ['widgetId', 'unit'],
    });
    expect(quote?.annotations).toEqual({
      title: 'Quote: Weigh a widget',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(buy?.inputSchema.required).toEqual(['widgetId', 'unit', 'confirmationToken', 'maxFee']);
    expect(buy?.outputSchema).toMatchObject({ type: 'object', properties: { grams: { type: 'number' } } });
    expect(buy?.argumentsIn).toEqual({ path: ['widgetId'], query: [], body: ['unit', 'note'] });
    expect(buy?.annotations).toEqual({
      title: 'Weigh a widget',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });

  it('a free read is one read-only tool; a public or internal route is none', () => {
    const read = { ...synthetic, method: 'GET' as const, billable: false, product: null, ports: [] };
    delete (read.request as { body?: unknown }).body;
    const tools = toolsOf([
      { ...read, request: { path: synthetic.request.path, query: noQuery } },
      { ...read, name: 'PublicWidget', public: true },
      { ...read, name: 'InternalWidget', internal: true },
    ]);
    expect(
      tools.map((tool) => [
        tool.name,
        tool.kind,
        tool.annotations.readOnlyHint,
        tool.annotations.openWorldHint,
      ]),
    ).toEqual([['weigh_widget', 'call', true, false]]);
  });

  it('every route of the table makes tools with unique names and object schemas', () => {
    const tools = toolsOf(routeList);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    expect(JSON.stringify(tools.map((tool) => tool.inputSchema))).not.toContain('starts_with');
  });

  it('are listed in docs/mcp.md exactly as npm run docs:mcp writes them from the route table', () => {
    const page = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    expect(withGeneratedTools(page, routeList), 'docs/mcp.md is out of date: run npm run docs:mcp').toBe(
      page,
    );
    expect(withGeneratedTools(page, [synthetic])).toContain('`quote_weigh_widget`');
  });
});
