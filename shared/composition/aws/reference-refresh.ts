/**
 * The daily reference refresh's ports: the live registry (the refresh never reads the sandbox)
 * and the reference store in the main table.
 */
import { secretReader } from '../../adapters/aws/secrets-extension.ts';
import { DynamoReferenceStore } from '../../adapters/dynamodb/reference.ts';
import { HttpRegistry } from '../../adapters/registry-http/http-registry.ts';
import type { ReferenceRegistry } from '../../reference/registry-port.ts';
import type { ReferenceStore } from '../../reference/store-port.ts';
import type { Factory } from './root.ts';

export const liveReferenceRegistry: Factory<ReferenceRegistry> = (root) => {
  if (!root.config.registryUrl) throw new Error('REGISTRY_URL must be set');
  return new HttpRegistry({
    baseUrl: root.config.registryUrl,
    credential: secretReader(
      root.config.registryCredential,
      'REGISTRY_CREDENTIAL or REGISTRY_CREDENTIAL_ARN',
    ),
  });
};

export const referenceStore: Factory<ReferenceStore> = (root) =>
  new DynamoReferenceStore(root.config.mainTable);
