/**
 * A monitoring run's ports (jobs.ts) over one stack's stores, as the local stack (local/jobs.ts) and
 * the monitoring bench (scripts/bench-monitoring.ts) run it: its time the stack's clock, the weekly
 * job buying from the live registry. The functions compose theirs from their factories
 * (functions/workers/monitoring/run.ts).
 */
import type { Environment } from '../kernel/api-keys.ts';
import type { Clock } from '../kernel/clock.ts';
import type { RunPorts } from './jobs.ts';

export interface RunPortSources
  extends Pick<
    RunPorts,
    'monitors' | 'eventLog' | 'events' | 'heldExtracts' | 'extractPurchases' | 'purchaseRecords'
  > {
  monitoringRuns: RunPorts['runs'];
  registryFor(environment: Environment): ReturnType<RunPorts['registryFor']> & RunPorts['registry'];
  clock: Clock;
}

/**
 * The caller's own: the run's queue, its charges (`accountCharges` of shared/spend-caps/charges.ts,
 * which monitoring may not import: the spend caps reach monitoring through usage and mcp), and the
 * daily check's registries (default the stack's).
 */
export type RunPortsOwn = Pick<RunPorts, 'queue' | 'monitoringSpend'> &
  Partial<Pick<RunPorts, 'registryFor'>>;

export function runPortsOver(sources: RunPortSources, own: RunPortsOwn): RunPorts {
  return {
    monitors: sources.monitors,
    runs: sources.monitoringRuns,
    queue: own.queue,
    registryFor: own.registryFor ?? sources.registryFor,
    registry: sources.registryFor('live'),
    eventLog: sources.eventLog,
    events: sources.events,
    heldExtracts: sources.heldExtracts,
    extractPurchases: sources.extractPurchases,
    purchaseRecords: sources.purchaseRecords,
    monitoringSpend: own.monitoringSpend,
    now: () => sources.clock.now(),
  };
}
