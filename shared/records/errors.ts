/**
 * The error code of the record lookups alone (spec 7.4; the document codes, identifier_conflict and
 * company_not_found, which orders and company lookups answer too, stay in the kernel's catalogue):
 * known to `ApiError` and to the registry-code map once this module loads, so a module that throws
 * it or calls a registry operation that rejects with it imports it. Its cause and fix are
 * error-guide.ts (the error reference and the OpenAPI document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const recordsErrors = defineErrors({
  business_name_not_found: entry(
    'not_found_error',
    404,
    ['CD08', 'CD09'],
    'The business registration number is unknown.',
  ),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof recordsErrors, true> {}
}
