/** What causes the record lookups' own code and how a client fixes it: a code of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { recordsErrors } from './errors.ts';

export const recordsErrorGuide = {
  business_name_not_found: {
    cause: 'The business registration number is unknown.',
    fix: 'Check the number.',
  },
} as const satisfies Record<keyof typeof recordsErrors, CapabilityErrorGuide>;
