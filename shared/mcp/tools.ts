/**
 * Tools derived from a route list: one tool per keyed route of the contract, two (a quote and a
 * buy) per billable route. Name, description, input and output JSON Schema come from the route's
 * own zod schemas, so a new route is a new tool with no code here.
 */
import * as z from 'zod/mini';
import type { RouteDefinition } from '../kernel/http/route.ts';

type JsonSchema = Record<string, unknown>;

export type ToolKind = 'call' | 'quote' | 'buy';

export interface RouteTool {
  name: string;
  kind: ToolKind;
  route: RouteDefinition;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  /** Where each argument goes in the request: the path, the query or the body. */
  argumentsIn: { path: string[]; query: string[]; body: string[] };
}

/** The buy tool's own arguments, never sent to the route. */
export const BUY_ARGUMENTS = { token: 'confirmationToken', maxFee: 'maxFee' } as const;

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** zod names some string checks as formats JSON Schema does not define (`starts_with`): they go. */
const NOT_FORMATS = new Set(['starts_with', 'ends_with', 'includes', 'regex']);

function dropUnknownFormats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropUnknownFormats);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => !(key === 'format' && typeof v === 'string' && NOT_FORMATS.has(v)))
      .map(([key, v]) => [key, dropUnknownFormats(v)]),
  );
}

/** A zod schema as one self-contained JSON Schema object: a top-level `$ref` resolved, `$defs` kept. */
function jsonSchemaOf(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  const json = dropUnknownFormats(z.toJSONSchema(schema, { io, unrepresentable: 'any' })) as JsonSchema;
  const {
    $schema: _,
    $ref,
    $defs,
    ...rest
  } = json as JsonSchema & {
    $ref?: string;
    $defs?: Record<string, JsonSchema>;
  };
  const top = typeof $ref === 'string' ? { ...($defs?.[$ref.replace('#/$defs/', '')] ?? {}), ...rest } : rest;
  return $defs ? { ...top, $defs } : top;
}

/** The properties of an object schema (path, query or body), with which are required. */
function partsOf(schema: z.core.$ZodType | undefined) {
  if (!schema) return { properties: {}, required: [] as string[], defs: {} };
  const json = jsonSchemaOf(schema, 'input') as JsonSchema & {
    properties?: Record<string, JsonSchema>;
    required?: string[];
    $defs?: Record<string, JsonSchema>;
  };
  return { properties: json.properties ?? {}, required: json.required ?? [], defs: json.$defs ?? {} };
}

/** Whether the route is one an agent can call with an API key: keyed, in the contract, and not `notForAgents`. */
export const exposed = (route: RouteDefinition): boolean =>
  !route.public && !route.internal && !route.notForAgents && !route.path.startsWith('/v1/console');

function inputOf(route: RouteDefinition) {
  const parts = {
    path: partsOf(route.request.path),
    query: partsOf(route.request.query),
    body: partsOf(route.request.body),
  };
  const properties: Record<string, JsonSchema> = {};
  const argumentsIn = { path: [] as string[], query: [] as string[], body: [] as string[] };
  for (const where of ['path', 'query', 'body'] as const) {
    for (const [name, schema] of Object.entries(parts[where].properties)) {
      if (name in properties)
        throw new Error(`${route.name}: argument ${name} is in two parts of the request`);
      properties[name] = schema;
      argumentsIn[where].push(name);
    }
  }
  const required = [...parts.path.required, ...parts.query.required, ...parts.body.required];
  const $defs = { ...parts.path.defs, ...parts.query.defs, ...parts.body.defs };
  const schema = {
    type: 'object' as const,
    properties,
    ...(required.length ? { required } : {}),
    ...(Object.keys($defs).length ? { $defs } : {}),
  };
  return { schema, argumentsIn };
}

/** How many fields deep an output schema describes the answer (compactOutput). */
export const OUTPUT_DEPTH = 2;

/** Keywords an output schema drops: `description` texts, and `additionalProperties: false`. */
const dropped = (key: string, value: unknown) =>
  (key === 'description' && typeof value === 'string') || (key === 'additionalProperties' && value === false);

/**
 * An output schema small enough to list ~70 of (tools/list was ~400 KB, three quarters these): it
 * checks an answer's shape, and the agent reads the answer itself. So it carries no descriptions
 * (the contract's), allows fields it does not name (an added field breaks no client that checks
 * answers against a list it cached), so takes `anyOf` for `oneOf`, and describes the answer's
 * fields and their fields (OUTPUT_DEPTH): a named schema deeper than that is typed by its JSON
 * type only. Every answer the full schema accepts, it accepts (test/unit/mcp-tools.test.ts checks
 * the recorded answers).
 */
function compactOutput(schema: JsonSchema): JsonSchema {
  const { $defs = {}, ...top } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const kept: Record<string, JsonSchema> = {};
  const queue: { name: string; depth: number }[] = [];
  const trim = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => trim(item, depth));
    if (node === null || typeof node !== 'object') return node;
    const { $ref } = node as { $ref?: unknown };
    if (typeof $ref === 'string') {
      const name = $ref.replace('#/$defs/', '');
      if (depth >= OUTPUT_DEPTH) {
        const type = $defs[name]?.type;
        return type === undefined ? {} : { type };
      }
      const queued = queue.find((one) => one.name === name);
      if (queued) queued.depth = Math.min(queued.depth, depth);
      else if (!(name in kept)) queue.push({ name, depth });
      return { $ref };
    }
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !dropped(key, value))
        .map(([key, value]) => [
          // With objects open, two branches may both match an answer: one is enough.
          key === 'oneOf' ? 'anyOf' : key,
          // A field is a level deeper; a field named `description` is not a description.
          key === 'properties'
            ? Object.fromEntries(
                Object.entries(value as object).map(([name, one]) => [name, trim(one, depth + 1)]),
              )
            : trim(value, depth),
        ]),
    );
  };
  const trimmed = trim(top, 0) as JsonSchema;
  // A schema named at two depths is described at the shallower one: shallowest first.
  const shallowest = () => queue.sort((a, b) => a.depth - b.depth).shift();
  for (let next = shallowest(); next; next = shallowest()) {
    kept[next.name] = trim($defs[next.name] ?? {}, next.depth) as JsonSchema;
  }
  return Object.keys(kept).length ? { ...trimmed, $defs: kept } : trimmed;
}

function outputOf(route: RouteDefinition): (JsonSchema & { type: 'object' }) | undefined {
  const json = jsonSchemaOf(route.response, 'output');
  // A non-JSON answer (a PDF, a page) has no structured output.
  if (json.type !== undefined && json.type !== 'object') return undefined;
  return { ...compactOutput(json), type: 'object' };
}

const FEE_NOTICE =
  'Show the quoted fee to your user and get their consent before buying: the buy tool bills the account.';

/** The tools of a route list, in its order. */
export function toolsOf(routes: readonly RouteDefinition[]): RouteTool[] {
  return routes.filter(exposed).flatMap((route): RouteTool[] => {
    const { schema, argumentsIn } = inputOf(route);
    const outputSchema = outputOf(route);
    const name = snake(route.name);
    const reads = route.method === 'GET';
    const base = {
      route,
      argumentsIn,
      ...(outputSchema ? { outputSchema } : {}),
    };
    const annotations = {
      title: route.summary,
      readOnlyHint: reads,
      destructiveHint: route.method === 'DELETE',
      idempotentHint:
        reads || route.method === 'PUT' || route.method === 'DELETE' || route.idempotent === true,
      // Routes that reach the national registry work on a world outside this service.
      openWorldHint: route.ports.includes('registryFor'),
    };
    if (!route.billable) {
      return [{ ...base, name, kind: 'call', description: route.summary, inputSchema: schema, annotations }];
    }
    const quote: RouteTool = {
      route,
      argumentsIn,
      name: `quote_${name}`,
      kind: 'quote',
      description: `Quote (free, buys nothing): ${route.summary}. Answers the fee in cents (amountCents; with maxPossible true, the most the purchase can cost, as the registry decides the fee code) and a confirmationToken for exactly these arguments, valid 5 minutes. ${FEE_NOTICE}`,
      inputSchema: schema,
      outputSchema: {
        type: 'object',
        properties: {
          fee: {
            type: 'object',
            properties: {
              amountCents: { type: 'integer' },
              maxPossible: { type: 'boolean' },
              billed: { type: 'boolean' },
            },
            required: ['amountCents', 'maxPossible', 'billed'],
          },
          confirmationToken: { type: 'string' },
          expiresAt: { type: 'string' },
        },
        required: ['fee', 'confirmationToken', 'expiresAt'],
      },
      // A quote is computed here: it reaches neither the registry nor the account.
      annotations: {
        ...annotations,
        title: `Quote: ${route.summary}`,
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    };
    const buy: RouteTool = {
      ...base,
      name,
      kind: 'buy',
      description: `${route.summary}. Bills the account: call ${quote.name} first with the same arguments. ${FEE_NOTICE} A retry with the same token never buys twice.`,
      inputSchema: {
        ...schema,
        properties: {
          ...schema.properties,
          [BUY_ARGUMENTS.token]: {
            type: 'string',
            description: `The confirmationToken ${quote.name} answered.`,
          },
          [BUY_ARGUMENTS.maxFee]: {
            type: 'integer',
            minimum: 0,
            description: 'The most the user agreed to pay, in cents: not below the quoted fee.',
          },
        },
        required: [...(schema.required ?? []), BUY_ARGUMENTS.token, BUY_ARGUMENTS.maxFee],
      },
      annotations: { ...annotations, idempotentHint: true },
    };
    return [quote, buy];
  });
}

/** A tool as `tools/list` shows it. */
export type ListedTool = Pick<
  RouteTool,
  'name' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations'
>;

/** The answer to `tools/list`: every tool, in one page. */
export const toolsList = (tools: readonly RouteTool[]): { tools: ListedTool[] } => ({
  tools: tools.map(({ name, description, inputSchema, outputSchema, annotations }) => ({
    name,
    description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations,
  })),
});

/** How to call one tool: its kind, the name of the route it calls, and where each argument goes. */
export type ToolCall = Pick<RouteTool, 'kind' | 'argumentsIn'> & { route: string };

/**
 * What the MCP function needs of the tools, as plain JSON: the `tools/list` answer and how to call
 * each tool. A Lambda bundle reads it from a file written when it was bundled (scripts/mcp-tools.ts),
 * so its start builds no JSON Schema and no route (docs/decisions/0127-lean-mcp-and-passkeys.md).
 */
export interface ToolCatalogue {
  list: { tools: ListedTool[] };
  calls: Record<string, ToolCall>;
}

export const catalogueOf = (tools: readonly RouteTool[]): ToolCatalogue => ({
  list: toolsList(tools),
  calls: Object.fromEntries(
    tools.map(({ name, kind, route, argumentsIn }) => [name, { kind, route: route.name, argumentsIn }]),
  ),
});
