/**
 * The whole error catalogue with its guide: the kernel's codes (those of the spec and the
 * platform's, shared/kernel/errors/), then each capability's own (its errors.ts, from the list of
 * capabilities). The error reference page, the OpenAPI document and its tests read it.
 */
import {
  type CatalogueEntry,
  type ErrorCode,
  errorCatalogue,
  serviceCodes,
} from '../kernel/errors/catalogue.ts';
import { type ErrorGuide, errorGuide } from '../kernel/errors/guide.ts';
import { capabilityList } from './capabilities.ts';

/** A code's catalogue entry and guide entry. */
export interface ServiceError extends CatalogueEntry, ErrorGuide {
  readonly addedByService: boolean;
}

/**
 * Spec section 7's codes in the order of its tables (7.3 to 7.7). The reference and the contract list
 * the spec's codes in this order wherever they are defined: a capability's own spec code follows the
 * spec code before it, so moving a code into its capability's folder changes no generated file.
 */
const SPEC_ORDER: readonly string[] = [
  ...['product_unavailable_in_jurisdiction', 'product_not_enabled', 'registry_unavailable'],
  ...['registry_application_error', 'sandbox_product_unavailable'],
  ...['acn_invalid', 'company_not_found', 'abn_and_acn_supplied', 'abn_invalid', 'abn_not_acn_based'],
  ...['abn_not_found', 'extract_unavailable_for_type', 'no_relational_data', 'document_period_conflict'],
  ...['document_date_range_invalid', 'identifier_conflict', 'business_name_not_found'],
  ...['document_list_unavailable', 'no_charges', 'charge_not_found'],
  ...['search_scope_invalid', 'no_matches', 'too_many_matches', 'name_required', 'name_invalid_characters'],
  ...['birth_date_range_invalid'],
  ...['extract_required', 'extract_not_found', 'extract_expired', 'extract_owner_mismatch'],
  ...['extract_type_invalid'],
  ...['search_expired', 'search_owner_mismatch', 'person_not_found', 'person_too_many_roles'],
  ...['document_number_invalid', 'duplicate_document_number', 'document_not_found', 'document_not_imaged'],
  ...['page_range_invalid', 'delivery_invalid', 'document_too_large_for_delivery', 'register_invalid'],
  ...['browse_key_too_short', 'summary_type_invalid', 'week_start_invalid', 'summary_unavailable'],
  ...['order_not_found', 'order_owner_mismatch', 'order_not_ready', 'order_download_expired'],
  ...['unauthorized', 'rate_limited', 'validation_error', 'idempotency_conflict'],
];

type Listed = [string, ServiceError];

/** The kernel's codes in catalogue order, each capability's spec code after the spec code before it, then the capabilities' other codes. */
function inReferenceOrder(kernel: readonly Listed[], own: readonly Listed[]): Listed[] {
  const listed = [...kernel];
  const specIndex = (code: string) => SPEC_ORDER.indexOf(code);
  const ownSpec = own
    .filter(([code]) => specIndex(code) >= 0)
    .sort(([a], [b]) => specIndex(a) - specIndex(b));
  for (const item of ownSpec) {
    const before = SPEC_ORDER[specIndex(item[0]) - 1];
    listed.splice(listed.findIndex(([code]) => code === before) + 1, 0, item);
  }
  return [...listed, ...own.filter(([code]) => specIndex(code) < 0)];
}

/** Every code with its entry, its cause and fix, and whether the service added it to the spec's, in reference order. */
export const serviceErrors = Object.fromEntries(
  inReferenceOrder(
    Object.entries(errorCatalogue).map(([code, entry]) => [
      code,
      {
        ...entry,
        ...errorGuide[code as keyof typeof errorGuide],
        addedByService: serviceCodes.has(code as keyof typeof errorCatalogue),
      },
    ]),
    capabilityList.flatMap((capability) =>
      Object.entries(capability.errors ?? {}).map(([code, entry]): Listed => {
        const guide = capability.errorGuide?.[code];
        if (guide === undefined)
          throw new Error(`error code ${code} of ${capability.name} has no guide entry`);
        return [code, { ...entry, ...guide, addedByService: guide.addedByService === true }];
      }),
    ),
  ),
) as Readonly<Record<ErrorCode, ServiceError>>;
