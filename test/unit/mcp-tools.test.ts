import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routeList } from '../../shared/app/routes.ts';
import { defineRoute } from '../../shared/kernel/http/route.ts';
import { noQuery } from '../../shared/kernel/http/schemas.ts';
import { withGeneratedTools } from '../../shared/mcp/docs.ts';
import { chargeOf, feeOf, QUOTED_ROUTES } from '../../shared/mcp/fees.ts';
import { toolsList, toolsOf } from '../../shared/mcp/tools.ts';
import { EXAMPLE_PRICE_SCHEDULE } from '../../shared/usage/prices.ts';

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

describe('the tools list (tools/list)', () => {
  const tools = toolsOf(routeList);
  const recorded = JSON.parse(
    readFileSync(new URL('../../shared/app/openapi/response-examples.json', import.meta.url), 'utf8'),
  ) as Record<string, Record<string, unknown>>;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const checker = (schema: object) => ajv.compile(schema);
  const outputOf = (name: string) => {
    const schema = tools.find((tool) => tool.name === name)?.outputSchema;
    if (!schema) throw new Error(`no output schema for ${name}`);
    return schema;
  };

  // It was 396,951 bytes with full output schemas; compact ones make it 244,591 (docs/mcp.md).
  it('is under 260 KB: compact output schemas, input schemas whole', () => {
    const listing = JSON.stringify(toolsList(tools));
    expect(listing.length).toBeLessThan(260_000);
    const outputs = JSON.stringify(tools.map((tool) => tool.outputSchema ?? {}));
    expect(outputs).not.toMatch(/"description":"/);
    expect(outputs).not.toContain('"additionalProperties":false');
    expect(outputs).not.toContain('"oneOf"');
    // The agent reads the input schemas: their descriptions stay.
    expect(JSON.stringify(tools.map((tool) => tool.inputSchema))).toMatch(/"description":"/);
  });

  it("accepts every recorded answer of the routes (shared/app/openapi/response-examples.json) with its tool's output schema", () => {
    const checked = tools.filter(
      (tool) => tool.kind !== 'quote' && tool.outputSchema && recorded[tool.route.name],
    );
    expect(checked.length).toBeGreaterThan(50);
    for (const tool of checked) {
      const check = checker(tool.outputSchema as object);
      expect(check(recorded[tool.route.name]), `${tool.name}: ${JSON.stringify(check.errors)}`).toBe(true);
    }
  }, 60_000);

  it("still checks an answer's fields and their fields, and allows an added field", () => {
    const check = checker(outputOf('get_company'));
    const company = recorded.GetCompany as Record<string, unknown>;
    expect(check({ ...company, addedLater: 'x' })).toBe(true);
    const { name: _, ...nameless } = company;
    expect(check(nameless)).toBe(false);
    expect(check({ ...company, name: 5 })).toBe(false);
    expect(check({ ...company, status: { code: 1, label: 'Registered' } })).toBe(false);
    expect(check({ ...company, meta: { ...(company.meta as object), requestId: 'nope' } })).toBe(false);
  });
});

describe('the fee a quote answers (shared/mcp/fees.ts)', () => {
  const routeNamed = (name: string) => {
    const route = routeList.find((candidate) => candidate.name === name);
    if (!route) throw new Error(`no route ${name}`);
    return route;
  };
  const at = '2026-11-25T10:00:00.000Z';
  const quote = (name: string, path: Record<string, unknown>, body: Record<string, unknown> = {}) =>
    feeOf(EXAMPLE_PRICE_SCHEDULE, routeNamed(name), { path, body }, { at, billed: true });
  const charge = (name: string, path: Record<string, unknown>, body: Record<string, unknown> = {}) =>
    chargeOf(routeNamed(name), { path, body }, new Date(at));

  it('has a charge for every billable route, and for nothing else', () => {
    expect([...QUOTED_ROUTES].sort()).toEqual(
      routeList
        .filter((route) => route.billable)
        .map((route) => route.name)
        .sort(),
    );
  });

  it("company extracts: the type's product and fee code (current, historical 955A; relational 955B)", () => {
    expect(charge('PurchaseCompanyExtract', {}, { type: 'current' })).toEqual({
      product: 'company_extract_current',
      feeCodes: ['955A'],
      quantity: 1,
      maxPossible: false,
    });
    expect(charge('PurchaseCompanyExtract', {}, { type: 'historical' }).product).toBe(
      'company_extract_historical',
    );
    expect(charge('PurchaseCompanyExtract', {}, { type: 'relational' })).toMatchObject({
      product: 'company_relationships',
      feeCodes: ['955B'],
    });
    expect(quote('PurchaseCompanyExtract', {}, { type: 'historical' })).toEqual({
      product: 'company_extract_historical',
      feeCode: '955A',
      quantity: 1,
      unitAmountCents: 4000,
      amountCents: 4000,
      currency: 'AUD',
      priceVersion: '2020-01-01',
      maxPossible: false,
      billed: true,
      examplePrices: true,
    });
  });

  it('person extracts: 958 once per person of the batch', () => {
    const ids = ['prs_1', 'prs_2', 'prs_3'];
    expect(charge('PurchasePersonExtracts', {}, { searchId: 'psr_x', personIds: ids })).toEqual({
      product: 'person_extract',
      feeCodes: ['958'],
      quantity: 3,
      maxPossible: false,
    });
    expect(quote('PurchasePersonExtracts', {}, { searchId: 'psr_x', personIds: ids }).amountCents).toBe(
      3 * 2200,
    );
  });

  it("register extracts: the register's fee code, and the register's own error for an unknown one", () => {
    expect(charge('PurchaseRegisterExtract', { register: 'RA', number: '1' }, {})).toMatchObject({
      product: 'register_extract',
      feeCodes: ['959A'],
    });
    expect(charge('PurchaseRegisterExtract', { register: 'BF', number: '1' }, {}).feeCodes).toEqual(['959J']);
    expect(() => charge('PurchaseRegisterExtract', { register: 'ra', number: '1' }, {})).toThrow(
      expect.objectContaining({ code: 'register_invalid' }),
    );
  });

  it("weekly summaries: the type's fee code, a cap unless refresh (a held summary is free)", () => {
    const body = { type: 'name-changes', weekStarting: '2026-11-16' };
    expect(charge('PurchaseWeeklySummary', {}, body)).toEqual({
      product: 'weekly_summary',
      feeCodes: ['930B'],
      quantity: 1,
      maxPossible: true,
    });
    expect(charge('PurchaseWeeklySummary', {}, { ...body, refresh: true }).maxPossible).toBe(false);
    expect(() => charge('PurchaseWeeklySummary', {}, { ...body, type: 'charges' })).toThrow(
      expect.objectContaining({ code: 'summary_type_invalid' }),
    );
  });

  it('offline name searches: 934', () => {
    expect(charge('CreateOfflineSearch', {}, { name: 'x' })).toEqual({
      product: 'name_search',
      feeCodes: ['934'],
      quantity: 1,
      maxPossible: false,
    });
  });

  it('charges extracts: the dearer of 955E and 955C, as a cap', () => {
    expect(charge('OrderChargesExtract', { id: '1' }, {})).toEqual({
      product: 'charges_extract',
      feeCodes: ['955E', '955C'],
      quantity: 1,
      maxPossible: true,
    });
    const schedule = {
      ...EXAMPLE_PRICE_SCHEDULE,
      versions: [
        {
          effectiveFrom: '2020-01-01',
          prices: {
            ...EXAMPLE_PRICE_SCHEDULE.versions[0]?.prices,
            'charges_extract/955E': 1800,
            'charges_extract/955C': 2100,
          },
        },
      ],
    };
    expect(
      feeOf(schedule, routeNamed('OrderChargesExtract'), { path: {}, body: {} }, { at, billed: false }),
    ).toMatchObject({
      feeCode: null,
      unitAmountCents: 2100,
      amountCents: 2100,
      maxPossible: true,
      billed: false,
    });
  });

  it('document images: one fee per document at the dearest of 951, 954 and 949, as a cap', () => {
    const body = { documents: [{ documentNumber: 'A' }, { documentNumber: 'B', pages: { from: 1, to: 2 } }] };
    expect(charge('OrderDocumentImages', {}, body)).toEqual({
      product: 'document_image',
      feeCodes: ['951', '954', '949'],
      quantity: 2,
      maxPossible: true,
    });
    expect(quote('OrderDocumentImages', {}, body)).toMatchObject({
      amountCents: 2 * 1200,
      maxPossible: true,
    });
  });

  it('prices from the version in force at the quote', () => {
    const schedule = {
      ...EXAMPLE_PRICE_SCHEDULE,
      versions: [
        ...EXAMPLE_PRICE_SCHEDULE.versions,
        {
          effectiveFrom: '2026-12-01',
          prices: { ...EXAMPLE_PRICE_SCHEDULE.versions[0]?.prices, 'company_extract_current/955A': 2700 },
        },
      ],
    };
    const route = routeNamed('PurchaseCompanyExtract');
    const request = { path: {}, body: { type: 'current' } };
    expect(feeOf(schedule, route, request, { at, billed: true }).amountCents).toBe(2500);
    expect(feeOf(schedule, route, request, { at: '2026-12-01T00:00:00Z', billed: true })).toMatchObject({
      amountCents: 2700,
      priceVersion: '2026-12-01',
    });
  });
});
