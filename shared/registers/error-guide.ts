/** What causes each of the registers' own codes and how a client fixes it: both are codes of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { registersErrors } from './errors.ts';

export const registersErrorGuide = {
  register_invalid: {
    cause: 'The register code is not valid.',
    fix: 'Send a register code from the code tables.',
  },
  browse_key_too_short: {
    cause: 'The browse key has fewer than two characters.',
    fix: 'Send at least two characters.',
  },
} as const satisfies Record<keyof typeof registersErrors, CapabilityErrorGuide>;
