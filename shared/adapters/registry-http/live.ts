/**
 * One capability's calls to the live registry over HTTP, apart from the whole registry
 * (shared/composition/registry/http-registry.ts): a transport of its own rows with the configured
 * URL and credential. The reference refresh and a capability outside the registry port use it.
 */
import type { ServiceConfig } from '../../kernel/config.ts';
import type { RegistryOperationRows } from '../../kernel/registry-protocol.ts';
import { secretReader } from '../aws/secrets-extension.ts';
import { registryProtocolOf } from './protocol.ts';
import { type HttpRegistryOptions, type RegistryCall, RegistryTransport } from './transport.ts';

export function liveRegistryCall<const T extends RegistryOperationRows>(
  config: Pick<ServiceConfig, 'registryUrl' | 'registryCredential'>,
  rows: T,
  options: Partial<HttpRegistryOptions> = {},
): RegistryCall<T> {
  if (!config.registryUrl) throw new Error('REGISTRY_URL must be set for live keys');
  return new RegistryTransport(
    {
      baseUrl: config.registryUrl,
      credential: secretReader(config.registryCredential, 'REGISTRY_CREDENTIAL or REGISTRY_CREDENTIAL_ARN'),
      ...options,
    },
    registryProtocolOf(rows),
  ).call;
}
