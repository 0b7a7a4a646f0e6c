/**
 * The error codes of company lookups and search alone (spec 7.4; the codes other capabilities
 * answer too stay in the kernel's catalogue): known to `ApiError` and to the registry-code map once
 * this module loads, so a module that throws one or calls a registry operation that rejects with
 * one imports it. Their causes and fixes are error-guide.ts (the error reference and the OpenAPI
 * document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const companiesErrors = defineErrors({
  abn_and_acn_supplied: entry(
    'invalid_request_error',
    400,
    ['CE04'],
    'Supply either an ABN or an ACN, not both.',
  ),
  no_relational_data: entry(
    'not_found_error',
    404,
    ['CR02'],
    'The organisation holds no roles, licences or shareholdings in other organisations.',
  ),
  document_period_conflict: entry(
    'invalid_request_error',
    400,
    ['CD02'],
    'Supply either years or a from/to range, not both.',
  ),
  document_date_range_invalid: entry(
    'invalid_request_error',
    400,
    ['CD03', 'CD04'],
    'The date range is invalid: from needs to, and from must not be later than to.',
  ),
  document_list_unavailable: entry(
    'invalid_request_error',
    422,
    ['CD51'],
    'No document list is available for this organisation.',
  ),
  charge_not_found: entry('not_found_error', 404, ['CH01'], 'The charge number is invalid or unknown.'),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof companiesErrors, true> {}
}
