/**
 * The error codes of people searches and person extracts alone (spec 7.5 and 7.7; the codes other
 * capabilities answer too stay in the kernel's catalogue): known to `ApiError` and to the
 * registry-code map once this module loads, so a module that throws one or calls a registry
 * operation that rejects with one imports it. Their causes and fixes are error-guide.ts (the error
 * reference and the OpenAPI document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const peopleErrors = defineErrors({
  name_required: entry(
    'invalid_request_error',
    400,
    ['PN01', 'PN02'],
    'A people search needs familyName and givenName.',
  ),
  birth_date_range_invalid: entry(
    'invalid_request_error',
    400,
    ['PN05', 'PN06', 'PN07'],
    'The birth date range is invalid.',
  ),
  search_expired: entry(
    'invalid_request_error',
    410,
    ['PE01', 'PD01'],
    'The people search is older than 30 days; search again.',
  ),
  person_not_found: entry(
    'not_found_error',
    404,
    ['PE03', 'PD03'],
    'The person id is not in the referenced search.',
  ),
  person_too_many_roles: entry(
    'invalid_request_error',
    422,
    ['PE51'],
    'A person has more than 999 roles; nothing was purchased.',
  ),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof peopleErrors, true> {}
}
