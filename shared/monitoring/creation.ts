/**
 * Creating a monitor: a company one carries its baseline, read now from the registry (free
 * reads); the subject must not be watched yet and the account must have room. Apart from
 * monitors.ts so that only CreateMonitor bundles the company lookup and the snapshot.
 */
// The codes this module throws (defineErrors).
import './errors.ts';
import { lookupCompany } from '../companies/extracts.ts';
import type { CompanyRegistry } from '../companies/registry-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { fromRegistry } from '../kernel/registry-errors.ts';
import type { RegistryCaller } from '../kernel/registry-port.ts';
import {
  type CheckedMonitorRequest,
  checkMonitorRequest,
  type MonitorRequest,
  newMonitorId,
} from './monitors.ts';
import { personSubjectKey } from './person-match.ts';
import { MONITOR_CAP } from './settings.ts';
import { monitoredCompany, readCompany } from './snapshot.ts';
import type { MonitorRecord, MonitorStore } from './store-port.ts';

export interface CreatePorts {
  monitors: MonitorStore;
  registry: CompanyRegistry;
  now: Date;
  caller: RegistryCaller;
  cap?: number;
}

/** The new monitor of a checked request: a company one carries its baseline, read now. */
export async function newMonitor(
  ports: Omit<CreatePorts, 'monitors'>,
  owner: Owner,
  request: CheckedMonitorRequest,
  param = 'company',
): Promise<MonitorRecord> {
  const at = toTimestamp(ports.now);
  const common = {
    id: newMonitorId(),
    accountId: owner.accountId,
    environment: owner.environment,
    eventTypes: request.eventTypes,
    sequence: 0,
    version: 1,
    createdAt: at,
    updatedAt: at,
  };
  if (request.kind === 'person') {
    return {
      ...common,
      kind: 'person',
      subjectKey: personSubjectKey(request.person),
      company: null,
      person: request.person,
      baseline: null,
      known: null,
    };
  }
  const company = await lookupCompany(ports.registry, request.company, ports.caller, param);
  const { snapshot } = await fromRegistry(
    readCompany(ports.registry, company, ports.caller, ports.now),
    param,
  );
  return {
    ...common,
    kind: 'company',
    subjectKey: company.number,
    company: monitoredCompany(company),
    person: null,
    baseline: snapshot,
    known: snapshot,
  };
}

const alreadyWatched = (monitor: Pick<MonitorRecord, 'kind' | 'environment'>, monitorId: string) =>
  new ApiError('monitor_already_exists', {
    param: monitor.kind,
    message: `This account already watches this ${monitor.kind} in the ${monitor.environment} environment (${monitorId}).`,
    details: { monitorId },
  });

/** Stores a new monitor; an already watched subject or a full account is refused. */
export async function storeMonitor(monitors: MonitorStore, monitor: MonitorRecord, cap = MONITOR_CAP) {
  const outcome = await monitors.create(monitor, cap);
  if (outcome.created) return monitor;
  if (outcome.reason === 'exists') throw alreadyWatched(monitor, outcome.monitorId);
  throw new ApiError('monitor_limit_reached', {
    param: null,
    message: `An account may hold at most ${cap} monitors per environment.`,
  });
}

export async function createMonitor(ports: CreatePorts, owner: Owner, request: MonitorRequest) {
  const checked = checkMonitorRequest(request, ports.now);
  if (checked.kind === 'company') {
    // Before the registry is asked: a company already watched costs no registry call.
    const existing = await ports.monitors.findBySubject(owner, checked.company.number);
    if (existing) throw alreadyWatched(existing, existing.id);
  }
  const monitor = await newMonitor(ports, owner, checked);
  return storeMonitor(ports.monitors, monitor, ports.cap ?? MONITOR_CAP);
}
