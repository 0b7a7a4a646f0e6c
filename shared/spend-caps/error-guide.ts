/** What causes the spend caps' codes and how a client fixes it: not a code of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { spendCapErrors } from './errors.ts';

export const spendCapErrorGuide = {
  spend_cap_exceeded: {
    cause:
      'The purchase would take the account’s or this key’s spend this calendar month (UTC) past its spend cap. `details` names the cap (`cap.scope`, `cap.keyId`, `cap.amountCents`), what is spent (`spentCents`, counting purchases still running) and what the purchase costs (`purchaseCents`, at most, where `maxPossible`). Nothing was bought and nothing reached the registry.',
    fix: 'Raise or remove the cap (`PUT` or `DELETE /v1/spend-caps/account` or `/v1/spend-caps/keys/{keyId}`, or the console), or wait for the next month; do not retry as is. A retry of an earlier purchase with its Idempotency-Key still answers that purchase.',
    addedByService: true,
  },
  spend_cap_raise_forbidden: {
    cause:
      'The change would raise or remove a spend cap, and it came with an API key or with a console session opened with a key’s link. A key may set a cap where none is set and lower one (also while an admin changes it: the lower write never undoes a raise); raising and removing are for an admin member signed in with their own email address. Nothing was changed.',
    fix: 'Ask an admin member of the account to raise or remove the cap in the console (Spend caps); do not retry as is.',
    addedByService: true,
  },
} as const satisfies Record<keyof typeof spendCapErrors, CapabilityErrorGuide>;
