/**
 * The error codes of the weekly summaries alone (spec 7.7): known to `ApiError` and to the
 * registry-code map once this module loads, so a module that throws one or calls a registry
 * operation that rejects with one imports it (purchase.ts, which monitoring's weekly job and the
 * sweeper run too). Their causes and fixes are error-guide.ts (the error reference and the OpenAPI
 * document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const weeklySummariesErrors = defineErrors({
  summary_type_invalid: entry(
    'invalid_request_error',
    400,
    ['WS01'],
    'The weekly summary type must be one of the six slugs.',
  ),
  week_start_invalid: entry(
    'invalid_request_error',
    400,
    ['WS02'],
    'weekStarting must be the Monday of a completed week within the last 12 months.',
  ),
  summary_unavailable: entry('not_found_error', 404, ['WS51'], 'The summary was not produced for that week.'),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof weeklySummariesErrors, true> {}
}
