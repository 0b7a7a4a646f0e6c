/** The fee ledger's report as the central places see it (shared/kernel/capability.ts): its route joins the Extracts area. */
import { defineCapability } from '../kernel/capability.ts';
import { usageRoutes } from './routes.ts';

export const usageCapability = defineCapability({
  name: 'usage',
  // Its port (`ledger`) is the extracts capability's.
  areas: [{ joins: 'Extracts', routes: [usageRoutes] }],
});
