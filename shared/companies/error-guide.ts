/** What causes each of company lookups' own codes and how a client fixes it: all are codes of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { companiesErrors } from './errors.ts';

export const companiesErrorGuide = {
  abn_and_acn_supplied: {
    cause: 'Both an ABN and an ACN were supplied.',
    fix: 'Send one of them.',
  },
  no_relational_data: {
    cause: 'The organisation holds no roles, licences or shareholdings in other organisations.',
    fix: 'Nothing to buy: a relational extract would be empty.',
  },
  document_period_conflict: {
    cause: 'Both years and a from/to range were supplied.',
    fix: 'Send either years or from and to.',
  },
  document_date_range_invalid: {
    cause: 'from was sent without to (or the other way round), or from is later than to.',
    fix: 'Send both ends of the range, from no later than to.',
  },
  document_list_unavailable: {
    cause: 'The registry keeps no document list for this organisation.',
    fix: 'Do not retry; the documents cannot be listed.',
  },
  charge_not_found: {
    cause: 'The charge number is invalid (one to nine digits) or unknown.',
    fix: 'Check the charge number; a company’s charges are listed by GET /v1/companies/{id}/charges.',
  },
} as const satisfies Record<keyof typeof companiesErrors, CapabilityErrorGuide>;
