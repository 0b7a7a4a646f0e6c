/** The registers as the central places see them (shared/kernel/capability.ts): their area and their own error codes. */
import { defineCapability } from '../kernel/capability.ts';
import { registersErrorGuide } from './error-guide.ts';
import { registersErrors } from './errors.ts';
import { registerExamples } from './examples.ts';
import { registerRoutes } from './routes.ts';

export const registersCapability = defineCapability({
  name: 'registers',
  areas: [
    {
      name: 'Registers',
      tag: 'Registers',
      description:
        'The professional, representative and banned or disqualified registers: the register list (static), browse by name and entry lookups (free), and register entry extracts.',
      order: 50,
      routes: [registerRoutes],
      examples: registerExamples,
    },
  ],
  errors: registersErrors,
  errorGuide: registersErrorGuide,
});
