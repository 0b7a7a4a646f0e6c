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
  spend_cap_raise_forbidden: entry(
    'permission_error',
    403,
    [],
    'Only an admin member signed in to the console may raise or remove a spend cap; an API key may set or lower one.',
  ),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof spendCapErrors, true> {}
}
