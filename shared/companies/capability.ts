/** Company lookups and search as the central places see it (shared/kernel/capability.ts): its area and its own error codes. */
import { defineCapability } from '../kernel/capability.ts';
import { companiesErrorGuide } from './error-guide.ts';
import { companiesErrors } from './errors.ts';
import { companyRoutes } from './routes.ts';

export const companiesCapability = defineCapability({
  name: 'companies',
  areas: [
    {
      name: 'Companies',
      tag: 'Companies',
      description:
        'Company search and lookup (free), company extract purchases, free reads of held extracts section by section, and charges.',
      order: 20,
      routes: [companyRoutes],
    },
  ],
  errors: companiesErrors,
  errorGuide: companiesErrorGuide,
});
