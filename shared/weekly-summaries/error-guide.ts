/** What causes each of the weekly summaries' own codes and how a client fixes it: all are codes of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { weeklySummariesErrors } from './errors.ts';

export const weeklySummariesErrorGuide = {
  summary_type_invalid: {
    cause: 'The weekly summary type is not one of the six slugs.',
    fix: 'Send one of the six summary types.',
  },
  week_start_invalid: {
    cause: 'weekStarting is not a Monday, not a completed week, or over a year ago.',
    fix: 'Send the Monday of a completed week within the last 12 months.',
  },
  summary_unavailable: {
    cause: 'The summary was not produced for that week.',
    fix: 'Ask for another week.',
  },
} as const satisfies Record<keyof typeof weeklySummariesErrors, CapabilityErrorGuide>;
