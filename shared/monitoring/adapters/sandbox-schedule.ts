/**
 * The sandbox register by day: the four companies of the published monitoring schedule
 * (shared/monitoring/sandbox-schedule.ts) in the state of the UTC calendar day of the sandbox's
 * clock, everywhere the sandbox reads them (lookup by number or ABN, the document list, document
 * lookups and image orders by number, extracts; name searches, but for the name-changing
 * company's name, below). The shared dataset is never changed: each day has a view of it with
 * those four records replaced, built once a day.
 *
 * - 990011017: status EXAD on even days, REGD on odd days;
 * - 990011026: `<name> (RENAMED)` on even days, the name on odd days; the name of the day before
 *   is its newest former name, ended that day. Name searches find and show it by its base name
 *   every day: it is one of the 120 ACME WIDGETS of the documented searches (ON52, and the
 *   offline search WIDGETS with its published scores and order), which a suffix would change;
 * - 990011035: a form 484 received each day, the last 30 days' in its document list;
 * - 990011044: EXAD every day.
 * On a day a company is EXAD, its extracts show the appointee the day's event names (an
 * administrator appointed that day) among its office holders and in its external administration.
 */

import {
  type CompanyRecord,
  type Dataset,
  type DocumentEntry,
  imageAvailableIn,
} from '../../adapters/sandbox/dataset.ts';
import { addDays } from '../../kernel/calendar-days.ts';
import { toTimestamp } from '../../kernel/clock.ts';
import type { RegistryDocument, RegistryOfficeholder } from '../../kernel/registry-port.ts';
import {
  SANDBOX_APPOINTEE,
  SANDBOX_SCHEDULE,
  type ScheduledDocument,
  scheduledDocuments,
  scheduledState,
} from '../sandbox-schedule.ts';

const registryDocument = (document: ScheduledDocument): RegistryDocument => ({
  ...document,
  subForms: [],
  processedAt: document.receivedAt,
  effectiveAt: document.receivedAt,
  qualifier: null,
  pageCount: 2,
  imaged: true,
  underRequisition: false,
  xbrlDocumentNumber: null,
  status: 'PROCESSED',
  priced: true,
});

/** The external administrator appointed on `date` (role AD, as the registry lists an administrator). */
const appointee = (date: string): RegistryOfficeholder => ({
  role: 'AD',
  status: 'C',
  appointedAt: date,
  ceasedAt: null,
  party: {
    type: 'person',
    person: { familyName: SANDBOX_APPOINTEE.familyName, givenNames: [...SANDBOX_APPOINTEE.givenNames] },
    birth: null,
    organisation: null,
  },
  address: null,
  sourceDocument: null,
});

/** A scheduled company's record on `date` (a new record: `record` is left as it is). */
export function scheduledRecord(record: CompanyRecord, date: string): CompanyRecord {
  const base = record.company;
  const state = scheduledState(base.number, date, { status: base.status, name: base.name });
  const yesterday = scheduledState(base.number, addDays(date, -1), state);
  const renamed = yesterday.name !== state.name;
  const company = {
    ...base,
    status: state.status,
    name: state.name,
    formerNames: renamed
      ? [{ name: yesterday.name, from: null, to: date }, ...base.formerNames]
      : [...base.formerNames],
  };
  const administered = state.status === 'EXAD' && base.status !== 'EXAD';
  const appointed = administered ? [appointee(date)] : [];
  return {
    ...record,
    company,
    officeholders: [...appointed, ...record.officeholders],
    documents: [...scheduledDocuments(base.number, date).map(registryDocument), ...record.documents],
    externalAdministration: administered
      ? { appointees: appointed, documents: [] }
      : record.externalAdministration,
  };
}

/** The dataset as it stands on `date`: `base` with the scheduled companies in that day's state. */
export function scheduledDataset(base: Dataset, date: string): Dataset {
  const swapped = new Map<CompanyRecord, CompanyRecord>();
  for (const number of Object.keys(SANDBOX_SCHEDULE)) {
    const record = base.byNumber.get(number);
    if (record) swapped.set(record, scheduledRecord(record, date));
  }
  const byNumber = new Map(base.byNumber);
  const byAbn = new Map(base.byAbn);
  for (const [was, record] of swapped) {
    byNumber.set(record.company.number, record);
    if (was.company.abn !== null) byAbn.set(was.company.abn, record);
  }
  // Name searches show the day's record, except the name-changing company's: it keeps its base
  // record and names, so the documented searches (ACME WIDGETS, WIDGETS) keep their scores and order.
  const searched = (record: CompanyRecord) =>
    SANDBOX_SCHEDULE[record.company.number] === 'company.name_changed' ? record : swapped.get(record);
  const names = base.names.map((entry) => {
    const record = searched(entry.record);
    return record && record !== entry.record ? { ...entry, record } : entry;
  });
  let documents: Map<string, DocumentEntry> | undefined;
  return {
    companies: base.companies.map((record) => swapped.get(record) ?? record),
    byNumber,
    byAbn,
    charges: base.charges,
    names,
    get people() {
      return base.people;
    },
    get byRegistryIdentifier() {
      return base.byRegistryIdentifier;
    },
    get peopleByFamilyName() {
      return base.peopleByFamilyName;
    },
    otherDocuments: base.otherDocuments,
    get documents() {
      if (!documents) {
        documents = new Map(base.documents);
        for (const record of swapped.values()) {
          for (const document of record.documents) {
            documents.set(document.documentNumber, {
              document,
              subject: { type: 'organisation', record },
              imageAvailable: imageAvailableIn(record, document),
            });
          }
        }
      }
      return documents;
    },
  };
}

/** The dataset of the day of each time asked: `scheduledDataset` of that UTC date, kept until the day changes. */
export function datasetByDay(base: Dataset): (now: Date) => Dataset {
  let held: { date: string; dataset: Dataset } | undefined;
  return (now) => {
    const date = toTimestamp(now).slice(0, 10);
    if (held?.date !== date) held = { date, dataset: scheduledDataset(base, date) };
    return held.dataset;
  };
}
