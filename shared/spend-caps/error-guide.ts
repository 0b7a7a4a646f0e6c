/** What causes the spend caps' code and how a client fixes it: not a code of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { spendCapErrors } from './errors.ts';

export const spendCapErrorGuide = {
  spend_cap_exceeded: {
    cause:
      'The purchase would take the account’s or this key’s spend this calendar month (UTC) past its spend cap. `details` names the cap (`cap.scope`, `cap.keyId`, `cap.amountCents`), what is spent (`spentCents`, counting purchases still running) and what the purchase costs (`purchaseCents`, at most, where `maxPossible`). Nothing was bought and nothing reached the registry.',
    fix: 'Raise or remove the cap (`PUT` or `DELETE /v1/spend-caps/account` or `/v1/spend-caps/keys/{keyId}`, or the console), or wait for the next month; do not retry as is. A retry of an earlier purchase with its Idempotency-Key still answers that purchase.',
    addedByService: true,
  },
} as const satisfies Record<keyof typeof spendCapErrors, CapabilityErrorGuide>;
