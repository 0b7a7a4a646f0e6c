import { readSecretFromExtension } from './adapters/aws/secrets-extension.ts';
import { DynamoApiKeyRepository } from './adapters/dynamodb/api-keys.ts';
import { DynamoLimiterStore } from './adapters/dynamodb/limiter.ts';
import { readConfig, type ServiceConfig } from './config.ts';
import { type Clock, systemClock } from './domain/clock.ts';
import { CursorCodec } from './domain/cursor.ts';
import type { ApiKeyRepository } from './ports/api-keys.ts';
import type { LimiterStore } from './ports/limiter.ts';

/**
 * What every handler uses (authentication, limits, cursors), built once per process on first
 * use. The stores of purchased data are in stores.ts.
 */
export interface Services {
  config: ServiceConfig;
  clock: Clock;
  apiKeys: ApiKeyRepository;
  limiter: LimiterStore;
  cursors: CursorCodec;
}

let services: Services | undefined;
let clockOverride: Clock | undefined;

/** Reads a secret once per process: a literal locally, the extension's cached copy on AWS. */
export function secretSource(secret: ServiceConfig['cursorSecret'], names: string): () => Promise<string> {
  if (!secret) return () => Promise.reject(new Error(`${names} must be set`));
  if ('value' in secret) return () => Promise.resolve(secret.value);
  let cached: Promise<string> | undefined;
  return () => {
    cached ??= readSecretFromExtension(secret.arn);
    cached.catch(() => {
      cached = undefined;
    });
    return cached;
  };
}

export function getServices(): Services {
  if (!services) {
    const config = readConfig();
    const clock = clockOverride ?? systemClock;
    services = {
      config,
      clock,
      apiKeys: new DynamoApiKeyRepository(config.keysTable),
      limiter: new DynamoLimiterStore(config.limitsTable),
      cursors: new CursorCodec(
        secretSource(config.cursorSecret, 'CURSOR_SECRET or CURSOR_SECRET_ARN'),
        clock,
      ),
    };
  }
  return services;
}

/** Local stack only: every service reads this clock instead of the system's. */
export function useClock(clock: Clock): void {
  clockOverride = clock;
  services = undefined;
}
