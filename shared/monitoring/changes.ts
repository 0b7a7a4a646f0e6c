/**
 * Turning what a job found into monitoring events for one monitor: deterministic ids (the same
 * change for the same account is the same event, however often a job runs), the monitor's
 * sequence numbers in order, and the write of the new state with its events in one transaction,
 * on condition that the monitor is still as read (a concurrent job re-reads and diffs again).
 */
import { createHash } from 'node:crypto';
import { presentCompanySummary } from '../companies/present.ts';
import { toTimestamp } from '../kernel/clock.ts';
import type { EventLog, EventPublisher, EventRecord, MonitoringEventType } from '../webhooks/event-port.ts';
import { publishRecorded } from '../webhooks/publish.ts';
import type { CompanySnapshot, MonitoredCompany, MonitorRecord, MonitorStore } from './store-port.ts';

/** Events one transaction carries at most (each is five items; DynamoDB takes 100 per transaction). */
export const EVENTS_PER_WRITE = 15;

/** One change a job found, before it is numbered. */
export interface FoundChange {
  type: MonitoringEventType;
  /** What makes the change unique for a subject: the same key is the same event. */
  key: string;
  /** The event's `data` beside the subject, the monitors and the sequence. */
  detail: Record<string, unknown>;
  /** The monitor's known state once this change is recorded (company monitors). */
  knownAfter: CompanySnapshot | null;
}

/** `evt_` + a hash of the owner, the subject and the change. */
export const monitoringEventId = (
  monitor: Pick<MonitorRecord, 'accountId' | 'environment' | 'subjectKey'>,
  key: string,
) =>
  `evt_${createHash('sha256')
    .update(`monitoring#${monitor.accountId}#${monitor.environment}#${monitor.subjectKey}#${key}`)
    .digest('hex')
    .slice(0, 24)}`;

export const subjectOf = (monitor: MonitorRecord, company: MonitoredCompany | null) => ({
  company: company ? presentCompanySummary(company) : null,
  person: monitor.person
    ? {
        familyName: monitor.person.familyName,
        givenNames: monitor.person.givenNames,
        birthDate: monitor.person.birthDate,
      }
    : null,
});

export interface ApplyPorts {
  monitors: MonitorStore;
  eventLog: Pick<EventLog, 'get' | 'markPublished'>;
  events: EventPublisher;
  now(): Date;
}

/**
 * Records `changes` for the monitor (a re-read monitor diffs again through `diff`): the events of
 * the types it wants, numbered from its sequence, at most EVENTS_PER_WRITE per transaction. The
 * events are published once written; one whose publication fails is published by the sweeper.
 */
export async function recordChanges(
  ports: ApplyPorts,
  start: MonitorRecord,
  diff: (monitor: MonitorRecord) => FoundChange[],
  company: MonitoredCompany | null,
  /** The diff keeps returning its changes (weekly items): stop once they are recorded. */
  oneShot = false,
): Promise<EventRecord[]> {
  const emitted: EventRecord[] = [];
  let monitor: MonitorRecord | undefined = start;
  for (let tries = 0; monitor && tries < 20; tries++) {
    const changes = diff(monitor);
    if (changes.length === 0) break;
    const chunk = changes.slice(0, EVENTS_PER_WRITE);
    const createdAt = toTimestamp(ports.now());
    let sequence = monitor.sequence;
    const events: EventRecord[] = [];
    for (const change of chunk) {
      if (!monitor.eventTypes.includes(change.type)) continue;
      sequence += 1;
      events.push({
        id: monitoringEventId(monitor, change.key),
        type: change.type,
        createdAt,
        livemode: monitor.environment === 'live',
        accountId: monitor.accountId,
        environment: monitor.environment,
        data: {
          object: 'monitorEvent',
          ...subjectOf(monitor, company),
          ...change.detail,
          monitorIds: [monitor.id],
          sequence,
        },
        publishedAt: null,
      });
    }
    const known = chunk.at(-1)?.knownAfter ?? monitor.known;
    const outcome = await ports.monitors.apply(monitor, { known, events });
    if (outcome === 'gone' || outcome === 'duplicate') break;
    if (outcome === 'stale') {
      monitor = await ports.monitors.get(monitor.id);
      continue;
    }
    emitted.push(...events);
    monitor = { ...monitor, known, sequence, version: monitor.version + 1 };
    for (const event of events) {
      try {
        await publishRecorded({ eventLog: ports.eventLog, events: ports.events, now: ports.now }, event.id);
      } catch {
        // Recorded, not yet on the bus: the sweeper publishes it.
      }
    }
    if (oneShot && changes.length <= EVENTS_PER_WRITE) break;
  }
  return emitted;
}
