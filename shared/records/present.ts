/** Registry records → the API's document, businessName and nameReservation objects. */
import {
  coded,
  partialAddress,
  personName,
  presentCompanySummary,
  presentDocument,
  presentParty,
} from '../company/presenters.ts';
import type {
  RegistryBusinessName,
  RegistryDocumentDetails,
  RegistryDocumentSubject,
  RegistryNameReservation,
} from '../ports/registry.ts';

function presentSubject(subject: RegistryDocumentSubject) {
  switch (subject.type) {
    case 'organisation':
      return { type: subject.type, company: presentCompanySummary(subject.company), person: null };
    case 'person':
      return { type: subject.type, company: null, person: personName(subject.name) };
    default:
      return { type: 'other' as const, company: null, person: null };
  }
}

/** The spec's document (document 1, 2.3) and whose document it is. */
export const presentDocumentDetails = (document: RegistryDocumentDetails) => ({
  ...presentDocument(document),
  subject: presentSubject(document.subject),
});

export const presentBusinessName = (name: RegistryBusinessName) => ({
  object: 'businessName' as const,
  id: name.number,
  name: name.name,
  status: coded('organisation-statuses', name.status),
  registeredAt: name.registeredAt,
  renewalDueAt: name.renewalDueAt,
  cancelledAt: name.cancelledAt,
  holders: name.holders.map((holder) => ({ party: presentParty(holder.party), abn: holder.abn })),
  principalPlaceOfBusiness: partialAddress(name.principalPlaceOfBusiness),
  previousStateRegistrations: name.stateRegistrations.map((registration) => ({
    number: registration.number,
    jurisdiction: coded('jurisdictions', registration.jurisdiction),
  })),
});

export const presentNameReservation = (reservation: RegistryNameReservation) => ({
  object: 'nameReservation' as const,
  id: reservation.number,
  name: reservation.name,
  status: coded('organisation-statuses', reservation.status),
  reservedFor: reservation.reservedFor && {
    type: coded('organisation-types', reservation.reservedFor.type),
    class:
      reservation.reservedFor.class === null
        ? null
        : coded('organisation-classes', reservation.reservedFor.class),
  },
  company: reservation.company && presentCompanySummary(reservation.company),
  reservedAt: reservation.reservedAt,
  expiresAt: reservation.expiresAt,
  sourceDocument: reservation.sourceDocument,
});
