/** The reference data as the central places see it (shared/kernel/capability.ts): its area, its own error code and ports. */
import { defineCapability } from '../kernel/capability.ts';
import { referenceErrorGuide } from './error-guide.ts';
import { referenceErrors } from './errors.ts';
import { referenceRoutes } from './routes.ts';

export const referenceCapability = defineCapability({
  name: 'reference',
  areas: [
    {
      name: 'Reference',
      tag: 'Reference',
      description: 'Free: identifier validation, code tables and the form schedule.',
      order: 10,
      routes: [referenceRoutes],
    },
  ],
  infrastructure: { cdk: 'cdk/stack.ts', local: 'local/stack.ts' },
  errors: referenceErrors,
  errorGuide: referenceErrorGuide,
  portGrants: {
    // Single-item reads of known keys: the stored schedule and code tables.
    formSchedule: { tables: { main: 'getItem' } },
    codeTableSet: { tables: { main: 'getItem' } },
  },
});
