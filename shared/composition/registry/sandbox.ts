/**
 * The registry that serves test keys: the sandbox dataset (organisations and people), in process,
 * never billed. Nothing is built at import time: the organisations are built when the registry is
 * created (on a function's first test-key call), the people on the first people call; both are
 * shared afterwards.
 */
import { buildSandboxRecords, sandboxRecords } from '../../adapters/sandbox/data/companies.ts';
import { buildSandboxPeople, sandboxPeople } from '../../adapters/sandbox/data/people.ts';
import { buildDataset, type Dataset } from '../../adapters/sandbox/dataset.ts';
import { datasetByDay } from '../../monitoring/adapters/sandbox-schedule.ts';
import {
  buildSandboxRecordOrganisations,
  sandboxRecordOrganisations,
  sandboxRecordsSource,
} from '../../records/adapters/sandbox-data.ts';
import { DatasetRegistry, type PageImageRenderer } from './dataset-registry.ts';

let dataset: Dataset | undefined;

/** The sandbox dataset, built on first call and shared afterwards (treat as read-only). */
export function sandboxDataset(): Dataset {
  dataset ??= buildDataset([...sandboxRecords(), ...sandboxRecordOrganisations()], sandboxPeople);
  return dataset;
}

/** A fresh, unshared build: for tests of determinism. */
export function buildSandboxDataset(): Dataset {
  const records = buildSandboxRecords();
  return buildDataset([...records, ...buildSandboxRecordOrganisations()], buildSandboxPeople(records));
}

/**
 * The sandbox registry on the clock `now`: the sandbox dataset, with the companies of the
 * published monitoring schedule in the state of the clock's UTC day (schedule.ts).
 */
export const createSandboxRegistry = (now: () => Date, pageImages?: PageImageRenderer): DatasetRegistry =>
  new DatasetRegistry(sandboxDataset(), now, {
    byTime: datasetByDay(sandboxDataset()),
    statelessImages: true,
    records: sandboxRecordsSource(),
    ...(pageImages ? { pageImages } : {}),
  });
