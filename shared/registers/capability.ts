/** The registers as the central places see them (shared/kernel/capability.ts): their own error codes. Their routes are the Registers area of app/areas.ts. */
import { defineCapability } from '../kernel/capability.ts';
import { registersErrorGuide } from './error-guide.ts';
import { registersErrors } from './errors.ts';

export const registersCapability = defineCapability({
  name: 'registers',
  errors: registersErrors,
  errorGuide: registersErrorGuide,
});
