/**
 * The error codes of the registers alone (spec 7.7; no_matches and extract_type_invalid, which
 * other capabilities answer too, stay in the kernel's catalogue): known to `ApiError` and to the
 * registry-code map once this module loads, so a module that throws one or calls a registry
 * operation that rejects with one imports it. Their causes and fixes are error-guide.ts (the error
 * reference and the OpenAPI document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const registersErrors = defineErrors({
  register_invalid: entry(
    'invalid_request_error',
    400,
    ['RP01', 'RQ01', 'RR01', 'RS01', 'RB01', 'RC01'],
    'Invalid register code.',
  ),
  browse_key_too_short: entry(
    'invalid_request_error',
    400,
    ['RP02', 'RR02', 'RB02'],
    'The browse key needs at least two characters.',
  ),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof registersErrors, true> {}
}
