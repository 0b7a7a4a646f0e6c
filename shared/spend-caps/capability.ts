/** Spend caps as the central places see them (shared/kernel/capability.ts): their routes, in the Extracts area, their error and their ports' grants. */
import { defineCapability } from '../kernel/capability.ts';
import { spendCapErrorGuide } from './error-guide.ts';
import { spendCapErrors } from './errors.ts';
import { spendCapExamples } from './examples.ts';
import { spendCapRoutes } from './routes.ts';

export const spendCapsCapability = defineCapability({
  name: 'spend-caps',
  areas: [{ joins: 'Extracts', routes: [spendCapRoutes], examples: spendCapExamples }],
  errors: spendCapErrors,
  errorGuide: spendCapErrorGuide,
  portGrants: {
    // Caps, counters and holds; reads the keys table to check a key cap's key is the account's.
    spendCaps: { tables: { main: 'readWrite', keys: 'read' } },
    // Holds and counters, the fee ledger it settles from, and the alert events it records.
    spendGuard: { tables: { main: 'readWrite' } },
    billingRecipients: { workersOnly: true },
  },
});
