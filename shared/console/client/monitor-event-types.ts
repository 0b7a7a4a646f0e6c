/**
 * The monitoring event types the monitors page offers: the API's list (shared/webhooks/event-port.ts),
 * copied because the browser script is checked without Node's types; test/unit/console-bundle.test.ts
 * fails when the two differ.
 */
export const monitoringEventTypes = [
  'company.status_changed',
  'company.name_changed',
  'company.type_changed',
  'company.document_lodged',
  'company.external_administration',
  'company.deregistered',
  'company.reinstated',
  'person.disqualified',
  'person.licence_granted',
] as const;
