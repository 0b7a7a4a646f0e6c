/**
 * The sandbox's published schedule (docs/sandbox.md, "Company monitoring"): four sandbox companies
 * whose state changes by the UTC calendar day of the sandbox's clock, so that a test-key lookup,
 * document list or extract shows what that day's monitoring event announced. Both sides derive
 * from here: the sandbox register shows `scheduledState` and `scheduledDocuments` of its day
 * (shared/monitoring/adapters/sandbox-schedule.ts), and the daily check records the day's event from them
 * (sandbox.ts). Pure functions of the date: every instance of the sandbox agrees without storage.
 *
 * The day number is the number of days since 1970-01-01; what alternates goes one way on even
 * days and back on odd days, so each day's state differs from the day before's.
 */
import { addDays, dayNumber } from '../kernel/calendar-days.ts';
import type { MonitoringEventType } from '../webhooks/event-port.ts';

/** The sandbox companies that change on the published schedule: one event type each, every day. */
export const SANDBOX_SCHEDULE: Readonly<Record<string, MonitoringEventType>> = {
  '990011017': 'company.status_changed',
  '990011026': 'company.name_changed',
  '990011035': 'company.document_lodged',
  '990011044': 'company.external_administration',
};

const isEvenDay = (date: string) => dayNumber(date) % 2 === 0;

/** What the name-changing company's name gets on even days. */
export const RENAMED_SUFFIX = ' (RENAMED)';

/** The name without the schedule's suffix. */
export const baseNameOf = (name: string) =>
  name.endsWith(RENAMED_SUFFIX) ? name.slice(0, -RENAMED_SUFFIX.length) : name;

/** The external administrator the sandbox appoints (the event names them; extracts list them). */
export const SANDBOX_APPOINTEE = { familyName: 'KOWALSKI', givenNames: ['ANNA', 'MARIA'] } as const;

export interface ScheduledState {
  status: string;
  name: string;
}

/**
 * What the sandbox shows of company `number` on `date`, from its state on any day (`from`: the
 * schedule only moves the field it owns; a company off the schedule keeps `from`).
 */
export function scheduledState(number: string, date: string, from: ScheduledState): ScheduledState {
  const even = isEvenDay(date);
  switch (SANDBOX_SCHEDULE[number]) {
    case 'company.status_changed':
      return { ...from, status: even ? 'EXAD' : 'REGD' };
    case 'company.name_changed': {
      const base = baseNameOf(from.name);
      return { ...from, name: even ? `${base}${RENAMED_SUFFIX}` : base };
    }
    case 'company.external_administration':
      return { ...from, status: 'EXAD' };
    default:
      return { ...from };
  }
}

/** How many days of scheduled documents the document-lodging company's list holds. */
export const SCHEDULED_DOCUMENT_DAYS = 30;
/** The form of the scheduled documents (a change to company details). */
export const SCHEDULED_FORM_CODE = '484';

/** The number of the document the schedule lodges on `date`: `9S` and the date's last seven digits. */
export const scheduledDocumentNumber = (date: string) => `9S${date.replace(/\D/g, '').slice(-7)}`;

export interface ScheduledDocument {
  documentNumber: string;
  formCode: string;
  receivedAt: string;
}

/** The document lodged on `date` by the schedule. */
export const scheduledDocument = (date: string): ScheduledDocument => ({
  documentNumber: scheduledDocumentNumber(date),
  formCode: SCHEDULED_FORM_CODE,
  receivedAt: date,
});

/**
 * The scheduled documents of company `number` on `date`, newest first: one a day for the last
 * SCHEDULED_DOCUMENT_DAYS days, `date` included (none for a company that lodges none).
 */
export function scheduledDocuments(number: string, date: string): ScheduledDocument[] {
  if (SANDBOX_SCHEDULE[number] !== 'company.document_lodged') return [];
  return Array.from({ length: SCHEDULED_DOCUMENT_DAYS }, (_, back) =>
    scheduledDocument(addDays(date, -back)),
  );
}
