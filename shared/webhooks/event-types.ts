/**
 * Every event type the service emits, and what an endpoint may subscribe to. Imports nothing, so
 * that the console's browser script (checked without Node's types) offers the API's own list.
 */

/** Company monitoring's event types (docs/monitoring.md; spec 9.2 allows new types within /v1). */
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
export type MonitoringEventType = (typeof monitoringEventTypes)[number];

/** Event types (spec 6.1, plus `webhook_endpoint.test`, spend alerts and monitoring's, which spec 9.2 allows). */
export const eventTypes = [
  'order.ready',
  'order.failed',
  'offline_search.ready',
  'webhook_endpoint.test',
  // A monthly spend cap's 50, 80 or 100 % reached (docs/usage.md, "Spend caps").
  'spend_cap.threshold_reached',
  ...monitoringEventTypes,
] as const;
export type EventType = (typeof eventTypes)[number];

/** An endpoint's `enabledEvents` entries: any event type, or `*` for every type (new ones too). */
export const subscribableEventTypes = [...eventTypes, '*'] as const;
