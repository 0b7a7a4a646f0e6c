/**
 * Monitoring in the sandbox (docs/sandbox.md, "Company monitoring"): test-key monitors get events
 * without waiting for the register to change, in two ways, both through the same path as real
 * changes (sequence numbers, the feed, the event log and webhooks) with `source.kind` `sandbox`:
 *
 * - a published schedule: four sandbox companies change every UTC day (sandbox-schedule.ts), in
 *   the sandbox register itself (its lookup, document list and extracts show the day's state);
 *   the daily check gives each test-key monitor watching one the day's event, whose before and
 *   after are the lookups of the day before and of the day, and moves the monitor's known state
 *   to what it read (`scheduledSandboxChange`);
 * - on demand: `POST /v1/sandbox/monitors/{monitorId}/events` with any event type the monitor
 *   wants queues that event for it; the worker records and delivers it within seconds. These are
 *   simulated: the register does not change, and neither does the monitor's known state.
 */

// The codes this module throws (defineErrors).
import './errors.ts';
import { coded as codedIn } from '../companies/present.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { addDays, dayNumber } from '../kernel/calendar-days.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { MonitoringEventType } from '../webhooks/event-port.ts';
import { type ApplyPorts, type FoundChange, monitoringEventId, recordChanges } from './changes.ts';
import { readMonitor } from './monitors.ts';
import { presentDocumentRef } from './present.ts';
import {
  SANDBOX_APPOINTEE,
  SANDBOX_SCHEDULE,
  scheduledDocument,
  scheduledState,
} from './sandbox-schedule.ts';
import type { CompanyReading } from './snapshot.ts';
import type { MonitoredCompany, MonitoringQueue, MonitorRecord, MonitorStore } from './store-port.ts';

export { SANDBOX_SCHEDULE } from './sandbox-schedule.ts';

const status = (code: string, label: string) => ({ code, label });
const STATUS_LABELS: Readonly<Record<string, string>> = {
  REGD: 'Registered',
  EXAD: 'External administration',
  DRGD: 'Deregistered',
};
const coded = (code: string) => status(code, STATUS_LABELS[code] ?? code);
const appointee = { familyName: SANDBOX_APPOINTEE.familyName, givenNames: [...SANDBOX_APPOINTEE.givenNames] };

/**
 * The event detail of an on-demand sandbox change of `type` for `monitor` on `date` (YYYY-MM-DD):
 * what flips alternates day by day (an even day goes one way, an odd day back). Simulated: the
 * register shows none of it.
 */
export function sandboxDetail(
  type: MonitoringEventType,
  monitor: MonitorRecord,
  date: string,
  serial: string,
): Record<string, unknown> {
  const even = dayNumber(date) % 2 === 0;
  const source = { kind: 'sandbox', checkedAt: `${date}T15:00:00Z` };
  const name = monitor.company?.name ?? monitor.baseline?.name ?? `SANDBOX COMPANY ${monitor.subjectKey}`;
  const renamed = name.endsWith(' (RENAMED)') ? name.slice(0, -' (RENAMED)'.length) : `${name} (RENAMED)`;
  const flip = <T>(a: T, b: T) => (even ? { before: a, after: b } : { before: b, after: a });
  switch (type) {
    case 'company.status_changed':
      return { ...flip(coded('REGD'), coded('EXAD')), source };
    case 'company.name_changed':
      return { ...flip(name, renamed), source };
    case 'company.type_changed':
      return {
        ...flip(
          status('APTY', 'Australian proprietary company'),
          status('APUB', 'Australian public company'),
        ),
        source,
      };
    case 'company.document_lodged':
      return {
        document: presentDocumentRef({
          documentNumber: `9S${serial.replace(/\D/g, '').slice(-7).padStart(7, '0')}`,
          formCode: '484',
          receivedAt: date,
        }),
        source,
      };
    case 'company.external_administration':
      return {
        appointee: { type: 'person', person: appointee },
        date,
        source: { ...source, subType: status('EXAD', 'External administration') },
      };
    case 'company.deregistered':
      return { before: coded('REGD'), after: coded('DRGD'), date, source };
    case 'company.reinstated':
      return { before: coded('DRGD'), after: coded('REGD'), date, source };
    case 'person.disqualified':
      return { match: 'names_and_birth_date', date, source };
    case 'person.licence_granted':
      return { match: 'names', licenceNumber: '512345', date, source };
  }
}

/** The sandbox change of `type` for the monitor, with the key that makes it one event. */
export function sandboxChange(
  type: MonitoringEventType,
  monitor: MonitorRecord,
  date: string,
  key: string,
): FoundChange {
  return {
    type,
    key: `sandbox#${key}`,
    detail: sandboxDetail(type, monitor, date, key),
    knownAfter: monitor.known,
  };
}

/** The company a sandbox company event names (the monitor's, as the last check saw it). */
const companyOf = (monitor: MonitorRecord): MonitoredCompany | null =>
  monitor.kind === 'company'
    ? (monitor.company ?? {
        number: monitor.subjectKey,
        numberType: 'ACN',
        name: monitor.baseline?.name ?? monitor.subjectKey,
        type: monitor.baseline?.type ?? 'APTY',
        status: monitor.baseline?.status ?? 'REGD',
        abn: null,
        registeredCharity: false,
        schemeCategories: [],
      })
    : null;

/** Records one sandbox event for the monitor (the worker's part); nothing when it was recorded before. */
export async function recordSandboxEvent(
  ports: ApplyPorts,
  message: { monitorId: string; type: MonitoringEventType; key: string },
): Promise<number> {
  const monitor = await ports.monitors.get(message.monitorId);
  if (monitor?.environment !== 'test') return 0;
  const date = toTimestamp(ports.now()).slice(0, 10);
  const change = sandboxChange(message.type, monitor, date, message.key);
  const emitted = await recordChanges(ports, monitor, () => [change], companyOf(monitor), true);
  return emitted.length;
}

/**
 * The day's scheduled change of a sandbox company from the daily check's reading of it (test
 * keys), or null for a company off the schedule. The day is the reading's UTC date (the sandbox
 * answered for that day); `after` is what the lookup showed, `before` what it showed the day
 * before (also when the monitor was created today, its baseline already showing `after`). The
 * monitor's known state moves to the reading, so no change of its own is found besides, today or
 * the next day. The key is the day's: a re-run of the day finds the event recorded and adds none.
 */
export function scheduledSandboxChange(number: string, reading: CompanyReading): FoundChange | null {
  const type = SANDBOX_SCHEDULE[number];
  if (type === undefined) return null;
  const at = reading.snapshot.at;
  const date = at.slice(0, 10);
  const source = { kind: 'sandbox', checkedAt: at };
  const today = { status: reading.company.status, name: reading.company.name };
  const yesterday = scheduledState(number, addDays(date, -1), today);
  const status = (code: string) => codedIn('organisation-statuses', code);
  const detail: Record<string, unknown> =
    type === 'company.status_changed'
      ? { before: status(yesterday.status), after: status(today.status), source }
      : type === 'company.name_changed'
        ? { before: yesterday.name, after: today.name, source }
        : type === 'company.document_lodged'
          ? { document: presentDocumentRef(scheduledDocument(date)), source }
          : {
              appointee: { type: 'person', person: appointee },
              date,
              source: { ...source, subType: codedIn('weekly-summary-sub-types', 'EXAD') },
            };
  return { type, key: `sandbox#schedule#${date}`, detail, knownAfter: reading.snapshot };
}

export interface SandboxEventRequest {
  monitors: MonitorStore;
  queue: MonitoringQueue;
  owner: Owner;
  monitorId: string;
  type: MonitoringEventType;
  /** The request's Idempotency-Key (its recovery key), else its request id: names the event. */
  key: string;
}

/**
 * Queues a sandbox event for a test-key monitor (a live key is refused before anything is read):
 * answers the event's id at once; the worker records and delivers it.
 */
export async function fireSandboxEvent({
  monitors,
  queue,
  owner,
  monitorId,
  type,
  key,
}: SandboxEventRequest) {
  if (owner.environment !== 'test') {
    throw new ApiError('monitoring_sandbox_only', {
      param: null,
      message:
        'Sandbox events can be fired with a test key only; live monitors change when the register does.',
    });
  }
  const monitor = await readMonitor(monitors, owner, monitorId);
  if (!monitor.eventTypes.includes(type)) {
    throw new ApiError('validation_error', {
      param: 'type',
      message: `This monitor wants ${monitor.eventTypes.join(', ')}; ${type} is not one of them.`,
    });
  }
  await queue.send([{ job: 'sandbox', monitorId: monitor.id, type, key }]);
  return {
    object: 'sandboxEvent' as const,
    id: monitoringEventId(monitor, `sandbox#${key}`),
    type,
    monitorId: monitor.id,
    status: 'queued' as const,
  };
}
