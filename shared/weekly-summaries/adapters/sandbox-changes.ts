/**
 * Changes to the register as they happen, for the registry simulator (`POST /__simulator/changes`)
 * and company monitoring's tests and demos: a company's status, name or type changes, a document
 * is lodged, a person is disqualified or granted a licence. Each change is made to the dataset's
 * records at once (so the lookup and the document list answer it) and adds the item the registry
 * would list in the weekly summary of the week it happened in (EXAD and the other external
 * administration statuses, DRGD, a name change, a type change, a disqualification, a licence).
 */

import type { Dataset } from '../../adapters/sandbox/dataset.ts';
import { toTimestamp } from '../../kernel/clock.ts';
import type { RegistryCompany, RegistryDocument, RegistryParty } from '../../kernel/registry-port.ts';
import type { RegistryWeeklySummaryItem, WeeklySummaryType } from '../registry-port.ts';
import { mondayOf } from '../weeks.ts';
import type { SourceWeek, WeeklySummarySource } from './sandbox.ts';

export interface RegisterChange {
  /** When the change happened (default now): its weekly summary item is in that week's summary. */
  at?: string;
  /** The company changed (nine digits); absent for a person's change. */
  number?: string;
  status?: string;
  name?: string;
  type?: string;
  /** A document lodged now with this form code. */
  document?: { formCode: string; documentNumber?: string };
  /** The external administrator appointed (a status change to EXAD lists it). */
  appointee?: { familyName: string; givenNames: string[] };
  /** A person disqualified, or granted a licence. */
  person?: {
    familyName: string;
    givenNames: string[];
    birthDate: string;
    event: 'disqualified' | 'licence';
    licenceNumber?: string;
  };
}

const EX_SUB_TYPES: Readonly<Record<string, string>> = { EXAD: 'EXAD' };

const organisationOf = (company: RegistryCompany): RegistryParty => ({
  type: 'organisation',
  person: null,
  birth: null,
  organisation: {
    number: company.number,
    numberType: company.numberType,
    name: company.name,
    abn: company.abn,
  },
});

const weeklyCompany = (company: RegistryCompany) => ({
  number: company.number,
  numberType: company.numberType,
  name: company.name,
  type: company.type,
  class: company.class,
  subClass: company.subClass,
  status: company.status,
  abn: company.abn,
  registeredCharity: company.registeredCharity,
  schemeCategories: [...company.schemeCategories],
});

export class RegisterChanges {
  private readonly items: {
    type: WeeklySummaryType;
    weekStarting: string;
    item: RegistryWeeklySummaryItem;
  }[] = [];
  private documents = 0;
  /** Changes made so far: the weekly summaries' cache key, so a summary asked again shows new items. */
  version = 0;

  constructor(
    private readonly dataset: Dataset,
    private readonly now: () => Date,
  ) {}

  /** Makes the change; throws on a number the dataset does not hold. */
  apply(change: RegisterChange): { applied: true; weekStarting: string } {
    const now = change.at === undefined ? this.now() : new Date(change.at);
    if (Number.isNaN(now.getTime())) throw new Error('at must be a time');
    const date = toTimestamp(now).slice(0, 10);
    const weekStarting = mondayOf(now);
    const add = (type: WeeklySummaryType, item: Partial<RegistryWeeklySummaryItem> & { subType: string }) =>
      this.items.push({
        type,
        weekStarting,
        item: {
          date,
          postcode: null,
          documentNumber: null,
          subject: null,
          newName: null,
          licenceNumber: null,
          company: null,
          ...item,
        },
      });
    if (change.number !== undefined) {
      const record = this.dataset.byNumber.get(change.number);
      if (!record) throw new Error(`no organisation has the number ${change.number}`);
      const company = record.company;
      let documentNumber: string | null = null;
      if (change.document) {
        this.documents += 1;
        documentNumber =
          change.document.documentNumber ??
          `8${String(this.documents).padStart(4, '0')}${String(now.getTime() % 10_000).padStart(4, '0')}`;
        const document: RegistryDocument = {
          documentNumber,
          formCode: change.document.formCode,
          subForms: [],
          receivedAt: date,
          processedAt: date,
          effectiveAt: date,
          qualifier: null,
          pageCount: 2,
          imaged: true,
          underRequisition: false,
          xbrlDocumentNumber: null,
          status: null,
          priced: true,
        };
        record.documents.push(document);
      }
      if (change.name !== undefined && change.name !== company.name) {
        const former = { ...company };
        company.formerNames = [{ name: company.name, from: null, to: date }, ...company.formerNames];
        company.name = change.name;
        add('name-changes', {
          subType: 'NAME',
          company: weeklyCompany(former),
          subject: organisationOf(former),
          newName: change.name,
          documentNumber,
        });
      }
      if (change.type !== undefined && change.type !== company.type) {
        company.type = change.type;
        add('new-registrations', { subType: 'CHGT', company: weeklyCompany(company), documentNumber });
      }
      if (change.status !== undefined && change.status !== company.status) {
        const was = company.status;
        company.status = change.status;
        if (change.status === 'DRGD') {
          company.deregistration = { date, reason: 'S601AA' };
          add('new-registrations', { subType: 'DRGD', company: weeklyCompany(company), documentNumber });
        } else if (was === 'DRGD' || was === 'SOFF') {
          if (was === 'DRGD') company.deregistration = null;
          add('new-registrations', { subType: 'REIN', company: weeklyCompany(company), documentNumber });
        }
        const subType = EX_SUB_TYPES[change.status];
        if (subType) {
          const appointee = change.appointee ?? { familyName: 'KOWALSKI', givenNames: ['ANNA', 'MARIA'] };
          add('external-administrations', {
            subType,
            company: weeklyCompany(company),
            subject: { type: 'person', person: appointee, birth: null, organisation: null },
            documentNumber,
          });
        }
      }
    }
    if (change.person) {
      const { familyName, givenNames, birthDate } = change.person;
      if (change.person.event === 'disqualified') {
        add('disqualified-directors', {
          subType: 'DISQ',
          subject: {
            type: 'person',
            person: { familyName, givenNames },
            birth: { date: birthDate, locality: null, stateOrCountry: null },
            organisation: null,
          },
          documentNumber: `7${String(now.getTime() % 100_000_000).padStart(8, '0')}`,
        });
      } else {
        add('licences-granted', {
          subType: 'LCRQ',
          subject: { type: 'person', person: { familyName, givenNames }, birth: null, organisation: null },
          licenceNumber: change.person.licenceNumber ?? '512345',
        });
      }
    }
    this.version += 1;
    return { applied: true, weekStarting };
  }

  /** The weekly summaries of `source`, with the items of the changes made in each week after them. */
  withWeeklySummaries(source: WeeklySummarySource): WeeklySummarySource {
    return {
      week: (type, weekStarting, now): SourceWeek | 'unpublished' => {
        const week = source.week(type, weekStarting, now);
        const added = this.items.filter(
          (entry) => entry.type === type && entry.weekStarting === weekStarting,
        );
        if (week === 'unpublished' || added.length === 0) return week;
        return { ...week, items: [...week.items, ...added.map((entry) => structuredClone(entry.item))] };
      },
      version: () => this.version,
    };
  }
}
