/**
 * A `Registry` (companies, people, orders, purchases, weekly summaries and reference data) over an in-memory `Dataset`: the sandbox
 * registry (test keys) and the registry simulator's back end (live keys, locally). It applies the
 * registry's own rules (spec document 1, sections 2.4, 2.5, 2.6 and 2.9; document 3, sections
 * 7.4, 7.5, 7.7 and 8): rejection codes, product support by organisation type, extract content by
 * type, record orders, charges extract plans, image requests and offline searches.
 *
 * One part per capability under `dataset/` (companies.ts, people.ts, orders.ts, purchases.ts),
 * composed here. Answers are deep copies, so a caller cannot change the shared, memoised dataset.
 * Image requests complete at once; they and postal hand-overs are kept in the registry object's
 * memory only.
 */
import { DatasetRecords, type RecordsSource } from '../adapters/sandbox/records.ts';
import { DatasetRegisters } from '../adapters/sandbox/registers.ts';
import { sandboxRegisterRecords } from '../adapters/sandbox/registers-data.ts';
import { registryClass } from '../ports/registry.ts';
import { DatasetCompanies } from './dataset/companies.ts';
import { DatasetOrders, type DatasetOrdersOptions } from './dataset/orders.ts';
import { DatasetPeople } from './dataset/people.ts';
import { DatasetPurchases } from './dataset/purchases.ts';
import { DatasetReference, type ReferenceSource } from './dataset/reference.ts';
import { DatasetWeeklySummaries, type WeeklySummarySource } from './dataset/weekly-summaries.ts';
import type { Dataset } from './dataset.ts';

export type { RecordsSource } from '../adapters/sandbox/records.ts';
export type { PageImageRenderer } from './dataset/orders.ts';
export type { ReferenceSource } from './dataset/reference.ts';
export type { WeeklySummarySource } from './dataset/weekly-summaries.ts';

/**
 * The orders part's options, the weekly summaries the registry serves (none: ZZ54, as the
 * sandbox) and its form schedule and code tables (the bundled copy when absent).
 */
export type DatasetRegistryOptions = DatasetOrdersOptions & {
  weeklySummaries?: WeeklySummarySource;
  reference?: ReferenceSource;
  /** The business names and reservations beside their organisations (none: every lookup is CD08 or CE03). */
  records?: RecordsSource;
};

/**
 * `new DatasetRegistry(dataset, now, options)`: `options` are the orders part's
 * (`statelessImages` for the sandbox, `pageImages` to draw images; see `DatasetOrders`) and the
 * weekly summaries' source (the simulator's generated weeks; the sandbox has none).
 */
export const DatasetRegistry = registryClass(
  'DatasetRegistry',
  (dataset: Dataset, now: () => Date = () => new Date(), options: DatasetRegistryOptions = {}) => {
    const { weeklySummaries, reference, records, ...ordersOptions } = options;
    const context = { dataset, now };
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
