/**
 * Company monitoring's company event types, written out as the tests expect them (not read from
 * the code under test): a type added or dropped there fails the tests that compare with this.
 */
export const COMPANY_EVENT_TYPES = [
  'company.status_changed',
  'company.name_changed',
  'company.type_changed',
  'company.document_lodged',
  'company.external_administration',
  'company.deregistered',
  'company.reinstated',
];
