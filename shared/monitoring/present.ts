/** Monitors and monitoring events as the API shows them. */
import { coded, presentCompanySummary } from '../companies/present.ts';
import { forms } from '../reference/forms.ts';
import type { CompanySnapshot, MonitorRecord } from './store-port.ts';

const formDescriptions = new Map(forms.map((form) => [form.formCode, form.description]));

/** A form's description from the schedule; the code itself when the schedule does not know it (spec 9.5). */
export const formDescriptionOf = (formCode: string) => formDescriptions.get(formCode) ?? formCode;

export const presentDocumentRef = (document: NonNullable<CompanySnapshot['latestDocument']>) => ({
  documentNumber: document.documentNumber,
  formCode: document.formCode,
  formDescription: formDescriptionOf(document.formCode),
  receivedAt: document.receivedAt,
});

export const presentSnapshot = (snapshot: CompanySnapshot) => ({
  status: coded('organisation-statuses', snapshot.status),
  name: snapshot.name,
  type: coded('organisation-types', snapshot.type),
  latestDocument: snapshot.latestDocument ? presentDocumentRef(snapshot.latestDocument) : null,
  at: snapshot.at,
});

export function presentMonitor(monitor: MonitorRecord) {
  return {
    object: 'monitor' as const,
    id: monitor.id,
    kind: monitor.kind,
    companyNumber: monitor.kind === 'company' ? monitor.subjectKey : null,
    company: monitor.company ? presentCompanySummary(monitor.company) : null,
    person: monitor.person
      ? {
          familyName: monitor.person.familyName,
          givenNames: monitor.person.givenNames,
          birthDate: monitor.person.birthDate,
        }
      : null,
    eventTypes: monitor.eventTypes,
    baseline: monitor.baseline ? presentSnapshot(monitor.baseline) : null,
    sequence: monitor.sequence,
    livemode: monitor.environment === 'live',
    createdAt: monitor.createdAt,
    updatedAt: monitor.updatedAt,
  };
}
