import type { Clock } from '../clock.ts';
import type { ServiceConfig } from '../config.ts';
import type { CursorCodec } from '../cursor.ts';
import type { ApiKeyRepository } from './api-keys.ts';
import type { LimiterStore } from './limiter.ts';
import type { RequestLog } from './request-log.ts';

/** What the HTTP pipeline itself uses on every request. */
export interface PlatformPorts {
  config: ServiceConfig;
  clock: Clock;
  apiKeys: ApiKeyRepository;
  limiter: LimiterStore;
  cursors: CursorCodec;
  /** Each admitted request's record, found by its `X-Request-Id` (console: find a request). */
  requestLog: RequestLog;
}

/** The names of the pipeline's own ports, which every route's handler is given. */
export const platformPortNames = [
  'config',
  'clock',
  'apiKeys',
  'limiter',
  'cursors',
  'requestLog',
] as const satisfies readonly (keyof PlatformPorts)[];

// Every platform port is named above (a new one without its name does not compile).
const _everyPlatformPortNamed: Record<keyof PlatformPorts, true> = Object.fromEntries(
  platformPortNames.map((name) => [name, true]),
) as Record<(typeof platformPortNames)[number], true>;
