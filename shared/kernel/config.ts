import { PLATFORM_ENV } from './infra/platform-env.ts';
import { tableDefinitions } from './infra/tables.ts';

/** A literal secret (local stack) or the ARN of a Secrets Manager secret (AWS). */
export type SecretSetting = { value: string } | { arn: string } | undefined;

/**
 * Everything the service is configured with. On Lambda `readConfig` reads it from the environment
 * CDK sets; the local stack builds it as a value and hands it to its composition root.
 */
export interface ServiceConfig {
  keysTable: string;
  limitsTable: string;
  mainTable: string;
  idempotencyTable: string;
  /** Base of the public docs: error links are `${docsUrl}/errors#<code>`. */
  docsUrl: string;
  cursorSecret: SecretSetting;
  /** Live keys' registry: its base URL and credential. */
  registryUrl: string | undefined;
  registryCredential: SecretSetting;
  /**
   * Requests one account may have in flight on one registry route (`REGISTRY_ACCOUNT_IN_FLIGHT`,
   * below the route's reserved concurrency: lib/registry-capacity.ts); unset, no such limit.
   */
  registryAccountInFlight?: number | undefined;
  /** Check every response against its route's schema (local stack and tests). */
  validateResponses: boolean;
  /** Base URL of the API, for `downloadUrl` and result links. */
  apiBaseUrl: string;
  /** Platform resources several capabilities use, set on the functions that use them. */
  eventBusName: string | undefined;
  mailFrom: string | undefined;
}

const secretSetting = (value: string | undefined, arn: string | undefined): SecretSetting =>
  value ? { value } : arn ? { arn } : undefined;

/** Env var of `registryAccountInFlight`, set by CDK on the functions of registry routes. */
export const REGISTRY_ACCOUNT_IN_FLIGHT_ENV = 'REGISTRY_ACCOUNT_IN_FLIGHT';

const positiveInteger = (value: string | undefined): number | undefined =>
  value !== undefined && /^[1-9]\d*$/.test(value) ? Number(value) : undefined;

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    // Only API functions authenticate: workflow functions have no keys or limits table.
    keysTable: env[tableDefinitions.keys.envVar] ?? '',
    limitsTable: env[tableDefinitions.limits.envVar] ?? '',
    mainTable: env[tableDefinitions.main.envVar] ?? '',
    idempotencyTable: env[tableDefinitions.idempotency.envVar] ?? '',
    docsUrl: env.DOCS_URL ?? 'https://docs.company-register.example.com',
    cursorSecret: secretSetting(env.CURSOR_SECRET, env.CURSOR_SECRET_ARN),
    registryUrl: env.REGISTRY_URL,
    registryCredential: secretSetting(env.REGISTRY_CREDENTIAL, env.REGISTRY_CREDENTIAL_ARN),
    registryAccountInFlight: positiveInteger(env[REGISTRY_ACCOUNT_IN_FLIGHT_ENV]),
    validateResponses: env.VALIDATE_RESPONSES === 'true',
    apiBaseUrl: env[PLATFORM_ENV.apiBaseUrl] ?? '',
    eventBusName: env[PLATFORM_ENV.eventBus],
    mailFrom: env[PLATFORM_ENV.mailFrom],
  };
}

/** A setting a port cannot work without, or an error naming it. */
export function required<T>(value: T | undefined | '', name: string): T {
  if (value === undefined || value === '') throw new Error(`${name} is not configured`);
  return value;
}
