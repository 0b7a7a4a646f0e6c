/**
 * The capabilities that declare themselves in a capability module (`shared/<name>/capability.ts`,
 * shared/kernel/capability.ts), in the order their areas follow the app's own in the reference. The
 * route table, the error reference, the OpenAPI document, CDK and the local stack derive what they
 * need from this list: adding a capability is its folder and one line here
 * (`npm run new:capability -- NAME` writes both). Build-time and central code only: no function
 * handler imports it, so a function still loads only what its route runs.
 */
import { companiesCapability } from '../companies/capability.ts';
import { extractsCapability } from '../extracts/capability.ts';
import type { Capability } from '../kernel/capability.ts';
import { monitoringCapability } from '../monitoring/capability.ts';
import { ordersCapability } from '../orders/capability.ts';
import { peopleCapability } from '../people/capability.ts';
import { recordsCapability } from '../records/capability.ts';
import { referenceCapability } from '../reference/capability.ts';
import { registersCapability } from '../registers/capability.ts';
import { spendCapsCapability } from '../spend-caps/capability.ts';
import { webhooksCapability } from '../webhooks/capability.ts';
import { weeklySummariesCapability } from '../weekly-summaries/capability.ts';

export const capabilities = [
  monitoringCapability,
  extractsCapability,
  ordersCapability,
  webhooksCapability,
  spendCapsCapability,
  companiesCapability,
  peopleCapability,
  registersCapability,
  recordsCapability,
  referenceCapability,
  weeklySummariesCapability,
] as const satisfies readonly Capability[];

/** The same list, each as the general shape (whose optional parts a capability may leave out). */
export const capabilityList: readonly Capability[] = capabilities;
