/**
 * The spend caps' error code: every billable route can answer it, always from the spend guard
 * (guard.ts), which imports this module so that `ApiError` knows it. Its cause and fix are
 * error-guide.ts (read by the error reference and the OpenAPI document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const spendCapErrors = defineErrors({
  spend_cap_exceeded: entry(
    'permission_error',
    403,
    [],
    'This purchase would pass a monthly spend cap of the account or of this key.',
  ),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof spendCapErrors, true> {}
}
