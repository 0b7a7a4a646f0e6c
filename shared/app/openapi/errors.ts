/**
 * Which error codes a route can answer with: its own (`RouteDefinition.errors`) plus those the
 * pipeline, API Gateway and the registry add. The OpenAPI generator documents exactly these, so a
 * response the HTTP tests receive with any other code fails them (test/support/contract.ts).
 */
import type { CatalogueEntry, ErrorCode } from '../../kernel/errors/catalogue.ts';
import type { RouteDefinition } from '../../kernel/http/route.ts';
import { serviceErrors } from '../errors.ts';
import { grantsOf } from '../port-grants.ts';

/**
 * Every route, public or not: a parameter that fails its schema or is unknown (422, or 400 from a
 * cursor or API Gateway's default 4XX response), a request over the size limits (400 `request_too_large`, body or
 * headers), the stage's throttling (429, a gateway response), and the unexpected (500, 503 when a
 * request runs out of time).
 */
export const ERRORS_OF_EVERY_ROUTE: readonly ErrorCode[] = [
  'validation_error',
  'request_too_large',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];

/** Every route that needs an API key: a bad key (401). */
export const ERRORS_OF_KEYED_ROUTES: readonly ErrorCode[] = ['unauthorized'];

/** Routes with a JSON body: a body that does not parse or nests too deep. */
export const ERRORS_OF_BODY_ROUTES: readonly ErrorCode[] = ['invalid_json'];

/**
 * Purchase routes (`idempotent`): an `Idempotency-Key` reused with another request, or sent again
 * while the first request with it is still running.
 */
export const ERRORS_OF_IDEMPOTENT_ROUTES: readonly ErrorCode[] = [
  'idempotency_conflict',
  'idempotency_key_in_use',
];

/** Billable routes: a purchase that would pass a monthly spend cap (the pipeline's spend guard). */
export const ERRORS_OF_BILLABLE_ROUTES: readonly ErrorCode[] = ['spend_cap_exceeded'];

/** Routes that call the registry (a port granted the registry): its universal errors (spec 7.3). */
export const REGISTRY_ERRORS: readonly ErrorCode[] = [
  'product_unavailable_in_jurisdiction',
  'product_not_enabled',
  'registry_unavailable',
  'registry_application_error',
  'sandbox_product_unavailable',
];

/** Every code a route can answer with, in catalogue order, without repeats. */
export function errorCodesOf(route: RouteDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    ...ERRORS_OF_EVERY_ROUTE,
    ...(route.public ? [] : ERRORS_OF_KEYED_ROUTES),
    ...(route.request.body ? ERRORS_OF_BODY_ROUTES : []),
    ...(route.idempotent ? ERRORS_OF_IDEMPOTENT_ROUTES : []),
    ...(route.billable ? ERRORS_OF_BILLABLE_ROUTES : []),
    ...(grantsOf(route).usesRegistry ? REGISTRY_ERRORS : []),
    ...route.errors,
  ]);
  return (Object.keys(serviceErrors) as ErrorCode[]).filter((code) => codes.has(code));
}

/** The statuses a code can be sent with: its catalogue status and the alternates it allows. */
export const statusesOf = (code: ErrorCode): number[] => {
  const entry: CatalogueEntry = serviceErrors[code];
  return [entry.status, ...(entry.alternateStatuses ?? [])];
};

/** A route's error codes by HTTP status, statuses ascending. */
export function errorCodesByStatus(route: RouteDefinition): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    for (const status of statusesOf(code)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
