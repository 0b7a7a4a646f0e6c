/** What causes each of people's own codes and how a client fixes it: all are codes of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { peopleErrors } from './errors.ts';

export const peopleErrorGuide = {
  name_required: {
    cause: 'A people search lacks familyName or givenName.',
    fix: 'Send both names.',
  },
  birth_date_range_invalid: {
    cause: 'birthDateFrom without birthDateTo, a start in the future, or a start after the end.',
    fix: 'Send both dates, in order, not in the future.',
  },
  search_expired: {
    cause: 'The people search is older than 30 days.',
    fix: 'Search again and use the new ids.',
  },
  person_not_found: {
    cause: 'The person id is not in the referenced search.',
    fix: 'Use a person id that the search returned.',
  },
  person_too_many_roles: {
    cause: 'A person has more than 999 roles; details.personId names them. Nothing was purchased.',
    fix: 'Leave that person out of the purchase.',
  },
} as const satisfies Record<keyof typeof peopleErrors, CapabilityErrorGuide>;
