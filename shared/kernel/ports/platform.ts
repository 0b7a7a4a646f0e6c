import type { Clock } from '../clock.ts';
import type { ServiceConfig } from '../config.ts';
import type { CursorCodec } from '../cursor.ts';
import type { ApiKeyRepository } from './api-keys.ts';
import type { LimiterStore } from './limiter.ts';

/** What the HTTP pipeline itself uses on every request. */
export interface PlatformPorts {
  config: ServiceConfig;
  clock: Clock;
  apiKeys: ApiKeyRepository;
  limiter: LimiterStore;
  cursors: CursorCodec;
}
