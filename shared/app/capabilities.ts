/**
 * The capabilities that declare themselves in a capability module (`shared/<name>/capability.ts`,
 * shared/kernel/capability.ts). The route areas, the route table, the error reference, the OpenAPI
 * document, CDK and the local stack derive what they need from this list, in its order (the codes
 * the spec does not place, the registry protocol's rows, the routes joining an area; the areas
 * themselves go by their `order`): adding a capability is its folder and one line here
 * (`npm run new:capability -- NAME` writes both). Build-time and central code only: no function
 * handler imports it, so a function still loads only what its route runs.
 */
import { companiesCapability } from '../companies/capability.ts';
import { consoleCapability } from '../console/capability.ts';
import { docsCapability } from '../docs/capability.ts';
import { extractsCapability } from '../extracts/capability.ts';
import type { Capability } from '../kernel/capability.ts';
import { mcpCapability } from '../mcp/capability.ts';
import { monitoringCapability } from '../monitoring/capability.ts';
import { ordersCapability } from '../orders/capability.ts';
import { peopleCapability } from '../people/capability.ts';
import { recordsCapability } from '../records/capability.ts';
import { referenceCapability } from '../reference/capability.ts';
import { registersCapability } from '../registers/capability.ts';
import { spendCapsCapability } from '../spend-caps/capability.ts';
import { usageCapability } from '../usage/capability.ts';
import { webhooksCapability } from '../webhooks/capability.ts';
import { weeklySummariesCapability } from '../weekly-summaries/capability.ts';

export const capabilities = [
  monitoringCapability,
  extractsCapability,
  ordersCapability,
  webhooksCapability,
  usageCapability,
  spendCapsCapability,
  companiesCapability,
  peopleCapability,
  registersCapability,
  recordsCapability,
  referenceCapability,
  weeklySummariesCapability,
  consoleCapability,
  mcpCapability,
  docsCapability,
] as const satisfies readonly Capability[];

/** The same list, each as the general shape (whose optional parts a capability may leave out). */
export const capabilityList: readonly Capability[] = capabilities;
