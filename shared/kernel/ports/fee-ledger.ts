/**
 * The usage ledger's entry: what every paid use (an extract, an order, a monitoring day) writes in
 * the same transaction as the thing it paid for, and what the usage report reads.
 */
import type { Environment } from '../api-keys.ts';

/** One billable act (or, for test keys, one non-billable purchase) as the invoice shows it. */
export interface FeeEntry {
  accountId: string;
  environment: Environment;
  at: string;
  product: string;
  /** The statutory fee code; null when nothing was charged (test keys). */
  feeCode: string | null;
  quantity: number;
  billable: boolean;
  clientReference: string | null;
  requestId: string;
  /** What the fee paid for: an extract or order id. */
  resourceId: string;
  /**
   * The price per unit in force when the entry was written, and its version (the `effectiveFrom`
   * of shared/usage/prices.ts): kept, so a later price never changes what this use cost. Test keys'
   * entries record what the same use would have cost. Absent on entries written before prices were
   * recorded (the report then prices them by their time).
   */
  unitAmountCents?: number;
  priceVersion?: string;
}
