/** What causes the reference routes' own code and how a client fixes it: a code the service adds to the spec's. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { referenceErrors } from './errors.ts';

export const referenceErrorGuide = {
  code_table_not_found: {
    cause: 'No code table has this slug.',
    fix: 'GET /v1/reference/code-tables lists the tables.',
    addedByService: true,
  },
} as const satisfies Record<keyof typeof referenceErrors, CapabilityErrorGuide>;
