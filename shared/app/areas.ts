/**
 * The API's areas, in the order the reference shows them: each is deployed as one CDK stack
 * (`<name>Routes`, lib/routes.ts), shown as one tag of the OpenAPI document, and joins the route
 * table (routes.ts). A new capability adds one entry here (or its routes to an existing area),
 * with its request examples if it keeps them beside its routes.
 */
import { companyRoutes } from '../companies/routes.ts';
import { consoleExamples } from '../console/examples.ts';
import { consoleRoutes } from '../console/routes.ts';

const { listMembers, inviteMember, changeMemberRole, removeMember, listAudit, ...consoleOwnRoutes } =
  consoleRoutes;
const consoleTeamRoutes = { listMembers, inviteMember, changeMemberRole, removeMember, listAudit };

import { passkeyRoutes } from '../console/passkey-routes.ts';
import { docsRoutes } from '../docs/routes.ts';
import type { RequestExample } from '../kernel/http/request-example.ts';
import type { RouteDefinition } from '../kernel/http/route.ts';
import { mcpRoutes } from '../mcp/routes.ts';
import { orderRoutes } from '../orders/routes.ts';
import { peopleRoutes } from '../people/routes.ts';
import { recordExamples } from '../records/examples.ts';
import { recordRoutes } from '../records/routes.ts';
import { referenceRoutes } from '../reference/routes.ts';
import { registerExamples } from '../registers/examples.ts';
import { registerRoutes } from '../registers/routes.ts';
import { spendCapExamples } from '../spend-caps/examples.ts';
import { spendCapRoutes } from '../spend-caps/routes.ts';
import { usageRoutes } from '../usage/routes.ts';
import { webhookRoutes } from '../webhooks/routes.ts';
import { weeklySummaryRoutes } from '../weekly-summaries/routes.ts';
import { capabilities } from './capabilities.ts';
import { extractRoutes } from './extract-routes.ts';
import type { CapabilityPorts } from './ports.ts';

export interface ApiArea {
  /** PascalCase, unique: names the area's stack. */
  readonly name: string;
  /** The OpenAPI tag its operations are listed under. */
  readonly tag: string;
  readonly description: string;
  /** The route entries of one or more capabilities (their routes.ts). */
  readonly routes: readonly Readonly<
    Record<string, RouteDefinition & { ports: readonly (keyof CapabilityPorts)[] }>
  >[];
  /** Request examples kept beside the routes (the others are in openapi/examples.ts). */
  readonly examples?: Readonly<Record<string, RequestExample>>;
}

export const apiAreas = [
  {
    name: 'Reference',
    tag: 'Reference',
    description: 'Free: identifier validation, code tables and the form schedule.',
    routes: [referenceRoutes],
  },
  {
    name: 'Companies',
    tag: 'Companies',
    description:
      'Company search and lookup (free), company extract purchases, free reads of held extracts section by section, and charges.',
    routes: [companyRoutes],
  },
  {
    name: 'People',
    tag: 'People',
    description: 'People searches (free), batch person extract purchases and free role reads.',
    routes: [peopleRoutes],
  },
  {
    name: 'Extracts',
    tag: 'Extracts',
    description:
      'Held extracts of any kind, the fee ledger, and monthly spend caps on the account and its keys.',
    routes: [extractRoutes, usageRoutes, spendCapRoutes, weeklySummaryRoutes],
    examples: spendCapExamples,
  },
  {
    name: 'Registers',
    tag: 'Registers',
    description:
      'The professional, representative and banned or disqualified registers: the register list (static), browse by name and entry lookups (free), and register entry extracts.',
    routes: [registerRoutes],
    examples: registerExamples,
  },
  {
    name: 'Orders',
    tag: 'Orders',
    description:
      'Asynchronous orders (charges extracts, document images) and offline searches: accepted with 202, billed at acceptance, announced by events.',
    routes: [orderRoutes],
  },
  {
    name: 'Records',
    tag: 'Records',
    description:
      'Free record lookups: document details (one, or up to 10 in one call), business names (by registry number or pre-2012 state number) and name reservations.',
    routes: [recordRoutes],
    examples: recordExamples,
  },
  {
    name: 'Webhooks',
    tag: 'Webhooks',
    description:
      'Events (30 days, for reconciliation) and webhook endpoints: signed deliveries of order.ready, order.failed and offline_search.ready, retried for 24 hours, with every attempt readable, resend, recover and a test event.',
    routes: [webhookRoutes],
  },
  // The capabilities that declare their own area (capabilities.ts), after the app's own.
  ...capabilities.flatMap((capability) => ('area' in capability ? [capability.area] : [])),
  {
    name: 'Console',
    tag: 'Console',
    description:
      'The account console: a single-use sign-in link for a key (the browser never holds the key), and the console page, which reads and changes the account through this API with a session cookie.',
    routes: [consoleOwnRoutes],
    examples: consoleExamples,
  },
  {
    // Apart from the Console area so that each area's stack stays within its resource budget.
    name: 'ConsoleTeam',
    tag: 'Console',
    description:
      "The account console's members, their roles and the account's audit records (admins only), and members' passkeys.",
    routes: [consoleTeamRoutes, passkeyRoutes],
  },
  {
    name: 'Mcp',
    tag: 'MCP',
    description:
      'The MCP server at /mcp: the routes as tools for AI agents, paid tools in two steps (docs/mcp.md).',
    routes: [mcpRoutes],
  },
  {
    name: 'Docs',
    tag: 'Contract',
    description: 'This document, served without an API key.',
    routes: [docsRoutes],
  },
] as const satisfies readonly ApiArea[];

/** An area's route entries, in order. */
export const routesOf = (area: ApiArea): RouteDefinition[] =>
  area.routes.flatMap((entries) => Object.values(entries));
