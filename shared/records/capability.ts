/** The record lookups as the central places see them (shared/kernel/capability.ts): their area and their own error code. */
import { defineCapability } from '../kernel/capability.ts';
import { recordsErrorGuide } from './error-guide.ts';
import { recordsErrors } from './errors.ts';
import { recordExamples } from './examples.ts';
import { recordRoutes } from './routes.ts';

export const recordsCapability = defineCapability({
  name: 'records',
  areas: [
    {
      name: 'Records',
      tag: 'Records',
      description:
        'Free record lookups: document details (one, or up to 10 in one call), business names (by registry number or pre-2012 state number) and name reservations.',
      order: 70,
      routes: [recordRoutes],
      examples: recordExamples,
    },
  ],
  errors: recordsErrors,
  errorGuide: recordsErrorGuide,
});
