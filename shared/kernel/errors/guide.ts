/**
 * For every code of the catalogue: what causes it and how a client fixes it. The error reference
 * page (`/docs/errors`, one entry per code) and the OpenAPI document's error descriptions are
 * generated from it; `satisfies Record<ErrorCode, …>` makes a new catalogue code fail to compile
 * until it is explained here.
 */
import type { KernelErrorCode } from './catalogue.ts';

export interface ErrorGuide {
  /** What makes the service answer with this code. */
  readonly cause: string;
  /** What the client does about it. */
  readonly fix: string;
}

/** A capability's guide entry (its error-guide.ts): also whether the code is one the service adds to the spec's. */
export interface CapabilityErrorGuide extends ErrorGuide {
  /** Not a code of the spec: the error reference marks it (docs/decisions/0013-error-codes-the-spec-does-not-name.md). */
  readonly addedByService?: boolean;
}

const retryLater = 'Retry with exponential backoff (doubling up to 60 seconds, with jitter).';

export const errorGuide = {
  product_unavailable_in_jurisdiction: {
    cause: 'The registry does not offer the product for the requested jurisdiction (ZZ01).',
    fix: 'Ask for the product in a jurisdiction where it is offered; do not retry as is.',
  },
  product_not_enabled: {
    cause: 'The product or the jurisdiction is not enabled on your account (ZZ02).',
    fix: 'Ask your account manager to enable the product; do not retry as is.',
  },
  spend_cap_exceeded: {
    cause:
      'The purchase would take the account’s or this key’s spend this calendar month (UTC) past its spend cap. `details` names the cap (`cap.scope`, `cap.keyId`, `cap.amountCents`), what is spent (`spentCents`, counting purchases still running) and what the purchase costs (`purchaseCents`, at most, where `maxPossible`). Nothing was bought and nothing reached the registry.',
    fix: 'Raise or remove the cap (`PUT` or `DELETE /v1/spend-caps/account` or `/v1/spend-caps/keys/{keyId}`, or the console), or wait for the next month; do not retry as is. A retry of an earlier purchase with its Idempotency-Key still answers that purchase.',
  },
  registry_unavailable: {
    cause:
      'The registry is unavailable, typically in a maintenance window (ZZ51), or did not answer in time. Nothing was charged unless the message says the outcome of a purchase is unknown.',
    fix: 'Retry after the Retry-After delay (the registry’s own delay when it gives one, else 300 seconds in a maintenance window, 5 seconds otherwise), with backoff. Retry a purchase with the same Idempotency-Key.',
  },
  registry_application_error: {
    cause:
      'The registry reported an application error (ZZ53), or answered with a code the service does not know.',
    fix: 'Retry once after the Retry-After delay; if it fails again, contact support with the requestId.',
  },
  sandbox_product_unavailable: {
    cause: 'A test key asked for a product the sandbox does not serve (ZZ54).',
    fix: 'Use a live key for this product.',
  },
  acn_invalid: {
    cause: 'The company number is not nine digits or fails the check digit test.',
    fix: 'Send the nine-digit ACN, ARBN or ARSN (spaces are allowed); check it with GET /v1/identifiers/{value}.',
  },
  company_not_found: {
    cause: 'No organisation has this identifier.',
    fix: 'Check the number, or find the company with GET /v1/companies/search.',
  },
  abn_and_acn_supplied: {
    cause: 'Both an ABN and an ACN were supplied.',
    fix: 'Send one of them.',
  },
  abn_invalid: {
    cause: 'The ABN fails its check digit test.',
    fix: 'Check the eleven digits of the ABN.',
  },
  abn_not_acn_based: {
    cause: 'The ABN is valid but does not embed a valid ACN, so it names no company.',
    fix: 'Search by the company name or ACN instead.',
  },
  abn_not_found: {
    cause: 'No ABN is recorded for the company, or no company matches the ACN inside the ABN.',
    fix: 'Use the ACN, or search by name.',
  },
  extract_unavailable_for_type: {
    cause: 'The organisation type has no such extract product (for example a trust). Nothing was charged.',
    fix: 'Do not retry: buy another extract type, or none, for this organisation.',
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
  identifier_conflict: {
    cause:
      'More than one kind of identifier was supplied (a name and a number), or a state number without a jurisdiction.',
    fix: 'Search by one identifier.',
  },
  business_name_not_found: {
    cause: 'The business registration number is unknown.',
    fix: 'Check the number.',
  },
  document_list_unavailable: {
    cause: 'The registry keeps no document list for this organisation.',
    fix: 'Do not retry; the documents cannot be listed.',
  },
  no_charges: {
    cause: 'The company has no charges, so a charges extract order has nothing to show. Nothing was charged.',
    fix: 'Do not order a charges extract for this company.',
  },
  charge_not_found: {
    cause: 'The charge number is invalid (one to nine digits) or unknown.',
    fix: 'Check the charge number; a company’s charges are listed by GET /v1/companies/{id}/charges.',
  },
  search_scope_invalid: {
    cause: 'The search scope is not one the API knows.',
    fix: 'Send one of the scopes listed in the message, or leave scope out (current).',
  },
  no_matches: {
    cause:
      'Nothing matched, or every name found was rejected by the criteria; details.counts gives returned and found.',
    fix: 'Broaden the search.',
  },
  too_many_matches: {
    cause:
      'Over 100 names matched (the registry cap), or the people index returned only a fuzzy count; details.counts gives the counts.',
    fix: 'Narrow the search (more of the name, a birth-date range), or run an offline search, which has no cap.',
  },
  name_required: {
    cause: 'A people search lacks familyName or givenName.',
    fix: 'Send both names.',
  },
  name_invalid_characters: {
    cause: 'A name holds characters other than letters, hyphens, apostrophes and spaces.',
    fix: 'Remove the other characters.',
  },
  birth_date_range_invalid: {
    cause: 'birthDateFrom without birthDateTo, a start in the future, or a start after the end.',
    fix: 'Send both dates, in order, not in the future.',
  },
  extract_required: {
    cause:
      'No held extract contains the data asked for; or a current extract is held but the data needs a historical one. A 402 never incurs a fee.',
    fix: 'Buy the extract described in details.purchase (method, path, body, product), then read again for free.',
  },
  extract_not_found: {
    cause: 'No extract has this id, or it is not an extract of this person or kind.',
    fix: 'Check the id; GET /v1/extracts lists the extracts you hold.',
  },
  extract_expired: {
    cause: 'The extract was bought more than 12 months ago and can no longer be read.',
    fix: 'Buy a new extract.',
  },
  extract_owner_mismatch: {
    cause:
      'The extract belongs to another account or environment (test and live keys do not share extracts).',
    fix: 'Read it with a key of the account and environment that bought it.',
  },
  extract_type_invalid: {
    cause:
      'type is not current, historical or relational; history is not a boolean; or extract names an extract of the wrong kind.',
    fix: 'Send a valid type, or the id of an extract of the right kind.',
  },
  search_expired: {
    cause: 'The people search is older than 30 days.',
    fix: 'Search again and use the new ids.',
  },
  search_owner_mismatch: {
    cause: 'The search or person id belongs to another account or environment.',
    fix: 'Use ids from a search made with a key of this account and environment.',
  },
  person_not_found: {
    cause: 'The person id is not in the referenced search.',
    fix: 'Use a person id that the search returned.',
  },
  person_too_many_roles: {
    cause: 'A person has more than 999 roles; details.personId names them. Nothing was purchased.',
    fix: 'Leave that person out of the purchase.',
  },
  document_number_invalid: {
    cause: 'A document number is not nine characters starting with a digit.',
    fix: 'Correct the document number.',
  },
  duplicate_document_number: {
    cause: 'The same document number appears twice in the request.',
    fix: 'Send each document number once.',
  },
  document_not_found: {
    cause: 'No document has this number.',
    fix: 'Check the number; a company’s documents are listed by GET /v1/companies/{id}/documents.',
  },
  document_not_imaged: {
    cause: 'The document is not in the imaging system (imaged false).',
    fix: 'Leave it out of the image order.',
  },
  page_range_invalid: {
    cause: 'pages.to is below pages.from, only one of them was given, or the pages are not in the document.',
    fix: 'Send both pages.from and pages.to within the document’s page count, or leave pages out.',
  },
  delivery_invalid: {
    cause: 'delivery.method is not web, email or post, or the method’s instructions are incomplete.',
    fix: 'Send a method with what it needs: email an address, post a postal address.',
  },
  document_too_large_for_delivery: {
    cause: 'Over 50 pages for email or over 500 for web; details give the page count, method and limit.',
    fix: 'Use web (up to 500 pages) or post (any size).',
  },
  register_invalid: {
    cause: 'The register code is not valid.',
    fix: 'Send a register code from the code tables.',
  },
  browse_key_too_short: {
    cause: 'The browse key has fewer than two characters.',
    fix: 'Send at least two characters.',
  },
  summary_type_invalid: {
    cause: 'The weekly summary type is not one of the six slugs.',
    fix: 'Send one of the six summary types.',
  },
  week_start_invalid: {
    cause: 'weekStarting is not a Monday, not a completed week, or over a year ago.',
    fix: 'Send the Monday of a completed week within the last 12 months.',
  },
  summary_unavailable: {
    cause: 'The summary was not produced for that week.',
    fix: 'Ask for another week.',
  },
  order_not_found: {
    cause: 'No order has this id, or its continuation token expired.',
    fix: 'Check the id; GET /v1/orders lists your orders.',
  },
  order_owner_mismatch: {
    cause: 'The order belongs to another account or environment.',
    fix: 'Read it with a key of the account and environment that placed it.',
  },
  event_not_found: {
    cause: 'No event has this id, or it is older than the 30 days events are kept.',
    fix: 'Check the id; GET /v1/events lists the events of the last 30 days.',
  },
  event_owner_mismatch: {
    cause: 'The event belongs to another account or environment.',
    fix: 'Read it with a key of the account and environment whose order or search caused it.',
  },
  webhook_endpoint_not_found: {
    cause: 'No webhook endpoint has this id (it may have been deleted).',
    fix: 'Check the id; GET /v1/webhook-endpoints lists your endpoints.',
  },
  webhook_endpoint_owner_mismatch: {
    cause: 'The webhook endpoint belongs to another account or environment.',
    fix: 'Manage it with a key of the account and environment that created it.',
  },
  webhook_url_not_allowed: {
    cause:
      'The URL is not https, or its host is an address deliveries may not reach (loopback, private, link-local, reserved or multicast, in any spelling).',
    fix: 'Give an https URL whose host name resolves to a public address.',
  },
  webhook_endpoint_limit_reached: {
    cause: 'The account already has 16 webhook endpoints in this environment.',
    fix: 'Delete an endpoint you no longer use (one endpoint can take several event types, or *).',
  },
  order_not_ready: {
    cause: 'The order is not ready for download yet.',
    fix: 'Wait for the order.ready event, or poll GET /v1/orders/{orderId} until status is ready.',
  },
  order_download_expired: {
    cause: 'The download link expired 7 days after the order became ready.',
    fix: 'Place the order again.',
  },
  unauthorized: {
    cause: 'The Authorization header is missing or malformed, or the key is unknown, revoked or expired.',
    fix: 'Send Authorization: Bearer <API_KEY> with a current key.',
  },
  csrf_token_invalid: {
    cause:
      "A change (POST, PATCH, DELETE) came with a console session cookie but without the session's CSRF token in X-CSRF-Token, or with another one. Nothing was changed.",
    fix: 'The console sends it by itself; reload the console. Integrations use an API key, which needs no CSRF token.',
  },
  console_role_forbidden: {
    cause:
      "The console session's member has a role that may not use this route: billing members see usage only; developers everything but the members. Nothing was changed.",
    fix: "Ask an admin of the account for another role, or use the account's API key from its backend.",
  },
  member_not_found: {
    cause:
      'The member id names no member of the signed-in account and environment (or the member was removed).',
    fix: "Pick a member from the console's member list.",
  },
  member_already_exists: {
    cause: 'The email address is a member of the account in this environment already.',
    fix: 'Change that member’s role instead of inviting the address again.',
  },
  member_is_last_admin: {
    cause:
      'Removing the member, or giving it another role, would leave the account with no admin in this environment (an admin who has signed in at least once). Nothing was changed.',
    fix: 'Invite or promote another member to admin, let them sign in, then change or remove this one.',
  },
  api_key_not_found: {
    cause: 'The key id names no key of the signed-in account.',
    fix: "Pick a key from the console's key list.",
  },
  request_not_found: {
    cause:
      'The console found no request with this X-Request-Id made by the signed-in account in its environment in the last 30 days (requests are kept 30 days; one refused before its key was recognised is not kept).',
    fix: "Copy the id from the response's X-Request-Id header (or the error's requestId); sign in to the environment the request was made in.",
  },
  api_key_limit_reached: {
    cause:
      'The account already has 20 usable (active, unexpired) API keys in the environment of the console session.',
    fix: 'Revoke a key you no longer use, then create the new one; or roll a key to replace it.',
  },
  api_key_not_active: {
    cause:
      'The key is revoked or expired, or it was rolled or revoked by someone else while this change was made.',
    fix: 'Reload the key list and try again on an active key.',
  },
  rate_limited: {
    cause: 'More than 600 requests in a sliding minute, or more than 20 in flight, on the key.',
    fix: `Wait for Retry-After seconds. ${retryLater} Nothing was sent to the registry.`,
  },
  validation_error: {
    cause:
      'A parameter failed validation not covered by a more specific code (param names it), an unknown parameter was sent, or a filter changed while paginating (400 with param cursor).',
    fix: 'Correct the parameter named by param; to change a filter, start again without cursor.',
  },
  idempotency_conflict: {
    cause: 'The Idempotency-Key was used in the last 24 hours with a different request.',
    fix: 'Use a new key for a new request; reuse a key only to retry the same request.',
  },
  idempotency_key_in_use: {
    cause:
      'The same request with the same Idempotency-Key is still running, and did not finish while this duplicate waited for it (up to 14 seconds). Nothing was done for this duplicate, and the first is never run twice. A request cut off by a crash holds its key for 6 seconds at most, then its retry takes it over.',
    fix: 'Retry after the Retry-After delay, with the same key and body: you get the first request’s result, or it is finished then (a 429, retried like rate_limited; never billed twice).',
  },
  code_table_not_found: {
    cause: 'No code table has this slug.',
    fix: 'GET /v1/reference/code-tables lists the tables.',
  },
  invalid_json: {
    cause: 'The request body is not valid JSON, or nests arrays and objects more than 32 levels deep.',
    fix: 'Send a valid JSON body with Content-Type: application/json.',
  },
  request_too_large: {
    cause:
      'The body is over 1 MiB, or the request line and headers together are over 10 KB (400 either way).',
    fix: 'Send a smaller request: fewer items per call, or a shorter URL and fewer headers.',
  },
  route_not_found: {
    cause: 'No endpoint matches this method and path.',
    fix: 'Check the method and path against the API reference (/docs).',
  },
  offline_search_not_found: {
    cause: 'No offline search has this id.',
    fix: 'Check the id returned by POST /v1/companies/search/offline.',
  },
  offline_search_limit_reached: {
    cause: 'The account has placed its 20 offline searches for today (UTC). Nothing was charged.',
    fix: 'Retry after the Retry-After delay (midnight UTC).',
  },
  offline_search_not_ready: {
    cause: 'The offline search has not finished yet.',
    fix: 'Wait for the offline_search.ready event, or poll the search until status is ready.',
  },
  sandbox_simulation_invalid: {
    cause: 'X-Sandbox-Simulate holds something other than order_failed, or was sent with a live key.',
    fix: 'Send X-Sandbox-Simulate: order_failed with a test key only.',
  },
  internal_error: {
    cause: 'Something went wrong on our side.',
    fix: 'Retry once after the Retry-After delay (a purchase with the same Idempotency-Key), then contact support with the requestId.',
  },
  service_unavailable: {
    cause:
      'The request ran out of time on our side before it could finish, or the service could not reach its database. The message says whether anything was changed or charged. Its type is registry_unavailable_error, the one spec type for a 503: the answer is retried with backoff.',
    fix: `Wait for Retry-After seconds, then retry. ${retryLater} Retry a purchase with the same Idempotency-Key.`,
  },
} as const satisfies Record<KernelErrorCode, ErrorGuide>;
