/**
 * A `Registry` (companies, people, orders, purchases, weekly summaries and reference data) over an in-memory `Dataset`: the sandbox
 * registry (test keys) and the registry simulator's back end (live keys, locally). It applies the
 * registry's own rules (spec document 1, sections 2.4, 2.5, 2.6 and 2.9; document 3, sections
 * 7.4, 7.5, 7.7 and 8): rejection codes, product support by organisation type, extract content by
 * type, record orders, charges extract plans, image requests and offline searches.
 *
 * One part per capability beside it (companies.ts, people.ts, orders.ts, purchases.ts, weekly-summaries.ts, reference.ts),
 * composed here. Answers are deep copies, so a caller cannot change the shared, memoised dataset.
 * Image requests complete at once; they and postal hand-overs are kept in the registry object's
 * memory only.
 */
export type { PageImageRenderer } from '../../orders/adapters/sandbox.ts';
export type { RecordsSource } from '../../records/adapters/sandbox.ts';
export type { ReferenceSource } from '../../reference/adapters/sandbox.ts';
export type { WeeklySummarySource } from '../../weekly-summaries/adapters/sandbox.ts';

import type { Dataset } from '../../adapters/sandbox/dataset.ts';
import { registryClass } from '../../app/registry.ts';
import { DatasetCompanies } from '../../companies/adapters/sandbox.ts';
import { DatasetPurchases } from '../../extracts/adapters/sandbox.ts';
import { DatasetOrders, type DatasetOrdersOptions } from '../../orders/adapters/sandbox.ts';
import { DatasetPeople } from '../../people/adapters/sandbox.ts';
import { DatasetRecords, type RecordsSource } from '../../records/adapters/sandbox.ts';
import { DatasetReference, type ReferenceSource } from '../../reference/adapters/sandbox.ts';
import { DatasetRegisters } from '../../registers/adapters/sandbox.ts';
import { sandboxRegisterRecords } from '../../registers/adapters/sandbox-data.ts';
import { DatasetWeeklySummaries, type WeeklySummarySource } from '../../weekly-summaries/adapters/sandbox.ts';

/**
 * The orders part's options, the weekly summaries the registry serves (none: ZZ54, as the
 * sandbox) and its form schedule and code tables (the bundled copy when absent).
 */
export type DatasetRegistryOptions = DatasetOrdersOptions & {
  weeklySummaries?: WeeklySummarySource;
  reference?: ReferenceSource;
  /** The business names and reservations beside their organisations (none: every lookup is CD08 or CE03). */
  records?: RecordsSource;
  /**
   * The dataset as it stands at a time (the sandbox's published schedule, schedule.ts): every
   * part answers from `byTime(now())` instead of `dataset`. Absent: the dataset as given.
   */
  byTime?: (now: Date) => Dataset;
};

/**
 * `new DatasetRegistry(dataset, now, options)`: `options` are the orders part's
 * (`statelessImages` for the sandbox, `pageImages` to draw images; see `DatasetOrders`) and the
 * weekly summaries' source (the simulator's generated weeks; the sandbox has none).
 */
export const DatasetRegistry = registryClass(
  'DatasetRegistry',
  (dataset: Dataset, now: () => Date = () => new Date(), options: DatasetRegistryOptions = {}) => {
    const { weeklySummaries, reference, records, byTime, ...ordersOptions } = options;
    const context = byTime
      ? {
          get dataset() {
            return byTime(now());
          },
          now,
        }
      : { dataset, now };
    return {
      companies: new DatasetCompanies(context),
      people: new DatasetPeople(context),
      orders: new DatasetOrders(context, ordersOptions),
      purchases: new DatasetPurchases(),
      weeklySummaries: new DatasetWeeklySummaries(context, weeklySummaries),
      registers: new DatasetRegisters(sandboxRegisterRecords, now),
      reference: new DatasetReference(reference),
      records: new DatasetRecords(context, records),
    };
  },
);
export type DatasetRegistry = InstanceType<typeof DatasetRegistry>;
