/**
 * The daily reference refresh on the local stack (infrastructure.local of the reference
 * capability): the refresh function against the registry simulator and DynamoDB Local
 * (refresh.ts), and `POST /__local/refresh-reference`, which runs it now and answers what it stored
 * or why not. Off the clock (the reference routes serve the bundled copy until a refresh) unless
 * `intervalMs`; `npm start` runs it at start and then daily.
 */
import { defineCapabilityLocal } from '../../../local/capability-local.ts';
import { DynamoReferenceStore } from '../adapters/dynamodb.ts';
import { startLocalReferenceRefresh } from './refresh.ts';

export interface ReferenceLocalSettings {
  /** Run the refresh on this interval as well (as EventBridge's schedule does). */
  intervalMs?: number;
}

declare module '../../../local/capability-local.ts' {
  interface LocalCapabilitySettings {
    reference?: ReferenceLocalSettings;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

export default defineCapabilityLocal({
  async start({ ports, settings, development, baseUrl }) {
    const refresh = startLocalReferenceRefresh(
      {
        registry: ports.registryFor('live'),
        store: new DynamoReferenceStore(ports.config.mainTable),
        now: () => ports.clock.now(),
      },
      settings.reference?.intervalMs ?? (development ? DAY_MS : undefined),
    );
    // As the deployed schedule does once a day; at start too, so the simulator's schedule is served at once.
    const atStart = development ? await refresh.run() : undefined;
    const state = atStart
      ? atStart.refreshed
        ? 'refreshed from the simulator'
        : 'refresh failed, bundled copy served'
      : 'the bundled copy until a refresh';
    return {
      handle: refresh,
      control: [
        {
          pattern: /^\/__local\/refresh-reference\/?$/,
          methods: { POST: async () => [200, await refresh.run()] },
        },
      ],
      notes: [
        `Reference data: ${state}; ${development ? 'daily, or ' : ''}POST ${baseUrl}/__local/refresh-reference`,
      ],
      stop: async () => refresh.stop(),
    };
  },
});
