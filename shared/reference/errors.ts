/**
 * The reference routes' own error code, one the service adds to spec section 7
 * (docs/decisions/0013-error-codes-the-spec-does-not-name.md): known to `ApiError` once this module
 * loads, so a module that throws it imports it. Its cause and fix are error-guide.ts (the error
 * reference and the OpenAPI document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const referenceErrors = defineErrors({
  code_table_not_found: entry('not_found_error', 404, [], 'No code table has this slug.'),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof referenceErrors, true> {}
}
