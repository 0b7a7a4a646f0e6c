/** Company lookups and search as the central places see it (shared/kernel/capability.ts): its own error codes. Its routes are the Companies area of app/areas.ts. */
import { defineCapability } from '../kernel/capability.ts';
import { companiesErrorGuide } from './error-guide.ts';
import { companiesErrors } from './errors.ts';

export const companiesCapability = defineCapability({
  name: 'companies',
  errors: companiesErrors,
  errorGuide: companiesErrorGuide,
});
