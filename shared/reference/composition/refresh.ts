/**
 * The daily reference refresh's ports: the live registry (the refresh never reads the sandbox)
 * and the reference store in the main table.
 */
import { secretReader } from '../../adapters/aws/secrets-extension.ts';
import { HttpRegistry } from '../../adapters/registry-http/http-registry.ts';
import type { PortRoot } from '../../kernel/capability-ports.ts';
import { DynamoReferenceStore } from '../adapters/dynamodb.ts';
import type { ReferenceRegistry } from '../registry-port.ts';
import type { ReferenceStore } from '../store-port.ts';

export const liveReferenceRegistry = (root: PortRoot): ReferenceRegistry => {
  if (!root.config.registryUrl) throw new Error('REGISTRY_URL must be set');
  return new HttpRegistry({
    baseUrl: root.config.registryUrl,
    credential: secretReader(
      root.config.registryCredential,
      'REGISTRY_CREDENTIAL or REGISTRY_CREDENTIAL_ARN',
    ),
  });
};

export const referenceStore = (root: PortRoot): ReferenceStore =>
  new DynamoReferenceStore(root.config.mainTable);
