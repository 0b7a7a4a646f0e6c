/** The registry that serves test keys: the sandbox dataset, in process, never billed. */
import { DatasetRegistry } from './dataset-registry.ts';
import { sandboxDataset } from './sandbox-data.ts';

export const createSandboxRegistry = (now: () => Date): DatasetRegistry =>
  new DatasetRegistry(sandboxDataset(), now);
