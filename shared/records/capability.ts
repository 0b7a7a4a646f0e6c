/** The record lookups as the central places see them (shared/kernel/capability.ts): their own error code. Their routes are the Records area of app/areas.ts. */
import { defineCapability } from '../kernel/capability.ts';
import { recordsErrorGuide } from './error-guide.ts';
import { recordsErrors } from './errors.ts';

export const recordsCapability = defineCapability({
  name: 'records',
  errors: recordsErrors,
  errorGuide: recordsErrorGuide,
});
