/** People searches and person extracts as the central places see them (shared/kernel/capability.ts): their area, their own error codes and port. */
import { defineCapability } from '../kernel/capability.ts';
import { peopleErrorGuide } from './error-guide.ts';
import { peopleErrors } from './errors.ts';
import { peopleRoutes } from './routes.ts';

export const peopleCapability = defineCapability({
  name: 'people',
  areas: [
    {
      name: 'People',
      tag: 'People',
      description: 'People searches (free), batch person extract purchases and free role reads.',
      order: 30,
      routes: [peopleRoutes],
    },
  ],
  errors: peopleErrors,
  errorGuide: peopleErrorGuide,
  portGrants: {
    peopleSearches: { tables: { main: 'readWrite' } },
  },
});
