/** The weekly summaries as the central places see them (shared/kernel/capability.ts): their routes, in the Extracts area, and their own error codes. */
import { defineCapability } from '../kernel/capability.ts';
import { weeklySummariesErrorGuide } from './error-guide.ts';
import { weeklySummariesErrors } from './errors.ts';
import { weeklySummaryRoutes } from './routes.ts';

export const weeklySummariesCapability = defineCapability({
  name: 'weekly-summaries',
  areas: [{ joins: 'Extracts', routes: [weeklySummaryRoutes] }],
  errors: weeklySummariesErrors,
  errorGuide: weeklySummariesErrorGuide,
});
