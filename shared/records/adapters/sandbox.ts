/**
 * The records capability over the dataset: document details (DD01, DD02, DD51), business names
 * (CD05, CD06, CD08, CD09) and name reservations (CE03).
 *
 * Business names and reservations are organisations of the dataset (types BUSN and RSVN, so the
 * company search and lookup find them): their name, status, registration date, principal place
 * of business and documents come from there. What the business names register adds (holders,
 * renewal and cancellation dates, pre-2012 state numbers) and what a reservation adds (what it is for, expiry) is
 * the `RecordsSource` the part is built with.
 */

import { type CompanyRecord, type DocumentEntry, partialAddress } from '../../adapters/sandbox/dataset.ts';
import {
  type DatasetContext,
  DatasetPart,
  rejectMalformedDocumentNumbers,
} from '../../adapters/sandbox/lookups.ts';
import { isCurrentStatus } from '../../kernel/registry-ordering.ts';
import { type RegistryCaller, RegistryRejection } from '../../kernel/registry-port.ts';
import {
  type BusinessNameQuery,
  MAX_DOCUMENT_DETAILS,
  type RecordsRegistry,
  type RegistryBusinessName,
  type RegistryBusinessNameHolder,
  type RegistryDocumentDetails,
  type RegistryNameReservation,
  type RegistryStateRegistration,
} from '../registry-port.ts';

/** What the business names register holds of a BUSN organisation beside its organisation record. */
export interface BusinessNameFacts {
  number: string;
  renewalDueAt: string | null;
  cancelledAt: string | null;
  holders: RegistryBusinessNameHolder[];
  stateRegistrations: RegistryStateRegistration[];
}

/** What a reservation (an RSVN organisation) holds beside its organisation record. */
export interface NameReservationFacts {
  number: string;
  /** Null when `companyNumber` is set: the company changes its name. */
  reservedFor: { type: string; class: string | null } | null;
  companyNumber: string | null;
  expiresAt: string;
}

export interface RecordsSource {
  businessNames: readonly BusinessNameFacts[];
  nameReservations: readonly NameReservationFacts[];
}

export const NO_RECORDS: RecordsSource = { businessNames: [], nameReservations: [] };

/** Forms that reserve a name (410) and extend a reservation (410F). */
const RESERVATION_FORMS = ['410', '410F'];

/** How the registry compares state numbers: upper case, without spaces. */
export const stateNumberKey = (jurisdiction: string, stateNumber: string): string =>
  `${jurisdiction.toUpperCase()}#${stateNumber.toUpperCase().replace(/\s+/g, '')}`;

const present = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

function detailsOf(entry: DocumentEntry): RegistryDocumentDetails {
  const { document, subject } = entry;
  return {
    ...document,
    subject:
      subject.type === 'organisation'
        ? { type: 'organisation', company: subject.record.company }
        : subject.type === 'person'
          ? { type: 'person', name: subject.record.match.name }
          : { type: 'other' },
  };
}

export class DatasetRecords extends DatasetPart implements RecordsRegistry {
  private indexes:
    | {
        businessNames: Map<string, BusinessNameFacts>;
        byStateNumber: Map<string, BusinessNameFacts[]>;
        reservations: Map<string, NameReservationFacts>;
      }
    | undefined;

  constructor(
    context: DatasetContext,
    private readonly source: RecordsSource = NO_RECORDS,
  ) {
    super(context);
  }

  async getDocumentDetails(
    numbers: readonly string[],
    _caller: RegistryCaller,
  ): Promise<RegistryDocumentDetails[]> {
    if (!Array.isArray(numbers) || numbers.length > MAX_DOCUMENT_DETAILS) {
      throw new Error(`getDocumentDetails: at most ${MAX_DOCUMENT_DETAILS} document numbers in a list`);
    }
    rejectMalformedDocumentNumbers(numbers);
    const repeated = numbers.find((number, index) => numbers.indexOf(number) !== index);
    if (repeated !== undefined) {
      throw new RegistryRejection('DD02', `Document number ${repeated} is given twice.`, {
        documentNumber: repeated,
      });
    }
    const entries = numbers.map((number) => {
      const entry = this.dataset.documents.get(number);
      if (!entry) {
        throw new RegistryRejection('DD51', `No document has the number ${number}.`, {
          documentNumber: number,
        });
      }
      return entry;
    });
    return structuredClone(entries.map(detailsOf));
  }

  async findBusinessNames(
    query: BusinessNameQuery,
    _caller: RegistryCaller,
  ): Promise<RegistryBusinessName[]> {
    const { number, stateNumber, jurisdiction } = query ?? {};
    if (present(number) && present(stateNumber)) {
      throw new RegistryRejection('CD05', 'Give the business name number or a state number, not both.');
    }
    if (present(stateNumber)) {
      if (!present(jurisdiction)) {
        throw new RegistryRejection('CD06', 'A state registration number needs its jurisdiction.');
      }
      const facts = this.index().byStateNumber.get(stateNumberKey(jurisdiction, stateNumber)) ?? [];
      if (facts.length === 0) {
        throw new RegistryRejection(
          'CD09',
          `No business name was registered in ${jurisdiction} with the number ${stateNumber}.`,
        );
      }
      return structuredClone(facts.map((fact) => this.businessName(fact)));
    }
    if (!present(number)) {
      throw new RegistryRejection('CD05', 'Give the business name number or a state number.');
    }
    const facts = this.index().businessNames.get(number);
    if (!facts) throw new RegistryRejection('CD08', `No business name has the number ${number}.`);
    return structuredClone([this.businessName(facts)]);
  }

  async getNameReservation(number: string, _caller: RegistryCaller): Promise<RegistryNameReservation> {
    const facts = typeof number === 'string' ? this.index().reservations.get(number) : undefined;
    if (!facts) throw new RegistryRejection('CE03', `No name reservation has the number ${String(number)}.`);
    const record = this.organisation(facts.number, 'RSVN');
    const source = record.documents
      .filter((document) => RESERVATION_FORMS.includes(document.formCode))
      .sort((a, b) => b.receivedAt.localeCompare(a.receivedAt))[0];
    if (!source) throw new Error(`Name reservation ${facts.number} has no form 410`);
    const company = facts.companyNumber === null ? null : this.dataset.byNumber.get(facts.companyNumber);
    if (company === undefined) throw new Error(`Name reservation ${facts.number}: unknown company`);
    return structuredClone({
      number: record.company.number,
      name: record.company.name,
      status: record.company.status,
      reservedFor: facts.reservedFor,
      company: company?.company ?? null,
      reservedAt: record.company.registeredAt ?? source.receivedAt,
      expiresAt: facts.expiresAt,
      sourceDocument: {
        documentNumber: source.documentNumber,
        qualifier: source.qualifier,
        formCode: source.formCode,
      },
    });
  }

  private businessName(facts: BusinessNameFacts): RegistryBusinessName {
    const record = this.organisation(facts.number, 'BUSN');
    const place = record.addresses.find(
      (address) => address.type === 'PA' && isCurrentStatus(address.status),
    );
    const { company } = record;
    return {
      number: company.number,
      name: company.name,
      status: company.status,
      registeredAt: company.registeredAt,
      renewalDueAt: facts.renewalDueAt,
      cancelledAt: facts.cancelledAt,
      holders: facts.holders,
      principalPlaceOfBusiness: place ? partialAddress(place.address) : null,
      stateRegistrations: facts.stateRegistrations,
    };
  }

  /** The organisation record behind the facts: the source and the dataset must agree. */
  private organisation(number: string, type: 'BUSN' | 'RSVN'): CompanyRecord {
    const record = this.dataset.byNumber.get(number);
    if (record?.company.type !== type)
      throw new Error(`${number} is not a ${type} organisation of the dataset`);
    return record;
  }

  private index() {
    if (!this.indexes) {
      const businessNames = new Map<string, BusinessNameFacts>();
      const byStateNumber = new Map<string, BusinessNameFacts[]>();
      for (const facts of this.source.businessNames) {
        businessNames.set(facts.number, facts);
        for (const registration of facts.stateRegistrations) {
          const key = stateNumberKey(registration.jurisdiction, registration.number);
          byStateNumber.set(key, [...(byStateNumber.get(key) ?? []), facts]);
        }
      }
      const reservations = new Map(this.source.nameReservations.map((facts) => [facts.number, facts]));
      this.indexes = { businessNames, byStateNumber, reservations };
    }
    return this.indexes;
  }
}
