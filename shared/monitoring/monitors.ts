/**
 * Monitors: check a request, read, list, change the event types, delete (creation, which reads
 * the company's baseline from the registry, is creation.ts, so that only CreateMonitor bundles the
 * company lookup). Everything a request says is checked before the registry or the store is asked.
 */
// The codes this module throws (defineErrors).
import './errors.ts';
import { randomBytes } from 'node:crypto';
import { type CompanyIdentifier, parseCompanyIdentifier } from '../companies/identifier.ts';
import { isSameOwner, type Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { type CursorCodec, pageOfStore } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import { PERSON_NAME_PATTERN } from '../people/person-names.ts';
import { type MonitoringEventType, monitoringEventTypes } from '../webhooks/event-types.ts';
import type { MonitoredPerson, MonitorKind, MonitorRecord, MonitorStore } from './store-port.ts';

export const MONITOR_ID_PATTERN = /^mon_[0-9a-f]{24}$/;
export const newMonitorId = () => `mon_${randomBytes(12).toString('hex')}`;

/** The event types of each kind of monitor (all of them when a request names none). */
export const eventTypesOf: Readonly<Record<MonitorKind, readonly MonitoringEventType[]>> = {
  company: monitoringEventTypes.filter((type) => type.startsWith('company.')),
  person: monitoringEventTypes.filter((type) => type.startsWith('person.')),
};

export interface MonitorRequest {
  company?: string | undefined;
  person?: MonitoredPerson | undefined;
  eventTypes?: MonitoringEventType[] | undefined;
}

/** What a valid request asks for, before anything is looked up. */
export type CheckedMonitorRequest =
  | { kind: 'company'; company: CompanyIdentifier; eventTypes: MonitoringEventType[] }
  | { kind: 'person'; person: MonitoredPerson; eventTypes: MonitoringEventType[] };

function checkEventTypes(
  kind: MonitorKind,
  types: readonly MonitoringEventType[] | undefined,
  param: string,
) {
  if (types === undefined) return [...eventTypesOf[kind]];
  const allowed = eventTypesOf[kind];
  const seen = new Set<string>();
  types.forEach((type, i) => {
    if (!allowed.includes(type)) {
      throw new ApiError('validation_error', {
        param: `${param}[${i}]`,
        message: `A ${kind} monitor takes ${allowed.join(', ')}; ${type} is not one of them.`,
      });
    }
    if (seen.has(type)) {
      throw new ApiError('validation_error', {
        param: `${param}[${i}]`,
        message: `${type} is listed twice.`,
      });
    }
    seen.add(type);
  });
  return [...types];
}

function checkPerson(person: MonitoredPerson, param: string, today: string): MonitoredPerson {
  const names: [string, string][] = [
    [`${param}.familyName`, person.familyName],
    ...person.givenNames.map((name, i): [string, string] => [`${param}.givenNames[${i}]`, name]),
  ];
  for (const [at, name] of names) {
    if (name.trim() === '') {
      throw new ApiError('validation_error', { param: at, message: `${at} must not be blank.` });
    }
    if (!PERSON_NAME_PATTERN.test(name)) {
      throw new ApiError('name_invalid_characters', {
        param: at,
        message: `${at} may hold only letters, hyphens, apostrophes and spaces.`,
      });
    }
  }
  if (person.birthDate > today) {
    throw new ApiError('validation_error', {
      param: `${param}.birthDate`,
      message: 'birthDate is in the future.',
    });
  }
  return {
    familyName: person.familyName.trim(),
    givenNames: person.givenNames.map((name) => name.trim()),
    birthDate: person.birthDate,
  };
}

/** Checks a request (or an import row, with `prefix`) without any lookup. */
export function checkMonitorRequest(request: MonitorRequest, now: Date, prefix = ''): CheckedMonitorRequest {
  const companyGiven = request.company !== undefined;
  const personGiven = request.person !== undefined;
  if (companyGiven === personGiven) {
    throw new ApiError('validation_error', {
      param: `${prefix}company`,
      message: companyGiven
        ? 'Give company or person, not both.'
        : 'Give the company to watch (company) or the person (person).',
    });
  }
  if (request.company !== undefined) {
    return {
      kind: 'company',
      company: parseCompanyIdentifier(request.company, `${prefix}company`),
      eventTypes: checkEventTypes('company', request.eventTypes, `${prefix}eventTypes`),
    };
  }
  return {
    kind: 'person',
    person: checkPerson(request.person as MonitoredPerson, `${prefix}person`, toTimestamp(now).slice(0, 10)),
    eventTypes: checkEventTypes('person', request.eventTypes, `${prefix}eventTypes`),
  };
}

const otherOwner = (record: Owner, owner: Owner) =>
  record.accountId !== owner.accountId
    ? 'This monitor belongs to another account.'
    : `This monitor belongs to the ${record.environment} environment; use a ${record.environment} key.`;

/** The owner's monitor `id`, or its not-found or owner-mismatch error. */
export async function readMonitor(monitors: Pick<MonitorStore, 'get'>, owner: Owner, id: string) {
  const monitor = MONITOR_ID_PATTERN.test(id) ? await monitors.get(id) : undefined;
  if (!monitor)
    throw new ApiError('monitor_not_found', { param: 'monitorId', message: 'No monitor has this id.' });
  if (!isSameOwner(monitor, owner)) {
    throw new ApiError('monitor_owner_mismatch', { param: 'monitorId', message: otherOwner(monitor, owner) });
  }
  return monitor;
}

export async function updateMonitor(
  monitors: MonitorStore,
  owner: Owner,
  id: string,
  eventTypes: MonitoringEventType[],
  now: Date,
) {
  const monitor = await readMonitor(monitors, owner, id);
  const types = checkEventTypes(monitor.kind, eventTypes, 'eventTypes');
  return monitors.updateEventTypes(monitor, types, toTimestamp(now));
}

export async function deleteMonitor(monitors: MonitorStore, owner: Owner, id: string) {
  const monitor = await readMonitor(monitors, owner, id);
  if (!(await monitors.delete(monitor))) {
    throw new ApiError('monitor_not_found', { param: 'monitorId', message: 'No monitor has this id.' });
  }
  return { object: 'monitor' as const, id: monitor.id, deleted: true as const };
}

export interface ListMonitorsRequest {
  monitors: MonitorStore;
  cursors: CursorCodec;
  owner: Owner;
  route: { name: string };
  query: { company?: string | undefined; limit?: number | undefined; cursor?: string | undefined };
}

/**
 * The owner's monitors, newest first (totalCount: all of them), or the one of a company, each shown
 * by `present` (`presentMonitor`; the CSV list takes the records). The caller presents, so that
 * what imports this module (the import, monitor creation) does not bundle the presenter and its
 * code tables.
 */
export async function listMonitorsAs<T>(
  { monitors, cursors, owner, route, query }: ListMonitorsRequest,
  present: (monitor: MonitorRecord) => T,
) {
  if (query.company !== undefined) {
    const { number } = parseCompanyIdentifier(query.company, 'company');
    const request = pageRequest({ cursors }, route, owner, query, { company: number });
    // Checks a cursor given with the filter (one page at most: it is never needed).
    await cursors.decode({ route: request.route, filters: request.filters, owner }, query.cursor);
    const monitor = await monitors.findBySubject(owner, number);
    return {
      data: monitor ? [present(monitor)] : [],
      hasMore: false,
      nextCursor: null,
      totalCount: monitor ? 1 : 0,
    };
  }
  const [page, total] = await Promise.all([
    pageOfStore(
      pageRequest({ cursors }, route, owner, query, {}),
      (position) => monitors.list(owner, position),
      present,
    ),
    monitors.count(owner),
  ]);
  return { ...page, totalCount: total };
}
