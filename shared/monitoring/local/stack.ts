/**
 * Company monitoring on the local stack (infrastructure.local of the monitoring capability): its
 * jobs on the local clock with the fan-out queue in memory (jobs.ts), and
 * `POST /__local/monitoring/run` `{"job":"daily"|"weekly","crashAfter":n}`, which runs one now and
 * answers what it did. On the clock only as `npm start` runs (every minute it looks whether a run
 * is due) or with `intervalMs`. It starts after the webhooks' module, whose dispatcher queue
 * receives the events a run publishes, so that it stops first.
 */
import { defineCapabilityLocal } from '../../../local/capability-local.ts';
import { startLocalMonitoring } from './jobs.ts';

export interface MonitoringLocalSettings {
  /** How often the jobs look at the local clock to see whether a run is due (off when absent, a minute under `npm start`). */
  intervalMs?: number;
}

declare module '../../../local/capability-local.ts' {
  interface LocalCapabilitySettings {
    monitoring?: MonitoringLocalSettings;
  }
}

export default defineCapabilityLocal({
  after: ['webhooks'],
  async start({ ports, settings, development }) {
    const monitoring = startLocalMonitoring(
      ports,
      settings.monitoring?.intervalMs ?? (development ? 60_000 : 0),
    );
    return {
      handle: monitoring,
      ports: { monitoringQueue: monitoring.port },
      control: [
        {
          pattern: /^\/__local\/monitoring\/run\/?$/,
          methods: {
            POST: async ({ body }) => [
              200,
              await monitoring.run(body.job === 'weekly' ? 'weekly' : 'daily', {
                ...(typeof body.crashAfter === 'number' ? { crashAfter: body.crashAfter } : {}),
              }),
            ],
          },
        },
      ],
      stop: () => monitoring.stop(),
    };
  },
});
