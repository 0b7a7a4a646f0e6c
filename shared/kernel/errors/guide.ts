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
  identifier_conflict: {
    cause:
      'More than one kind of identifier was supplied (a name and a number), or a state number without a jurisdiction.',
    fix: 'Search by one identifier.',
  },
  no_charges: {
    cause: 'The company has no charges, so a charges extract order has nothing to show. Nothing was charged.',
    fix: 'Do not order a charges extract for this company.',
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
  name_invalid_characters: {
    cause: 'A name holds characters other than letters, hyphens, apostrophes and spaces.',
    fix: 'Remove the other characters.',
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
  search_owner_mismatch: {
    cause: 'The search or person id belongs to another account or environment.',
    fix: 'Use ids from a search made with a key of this account and environment.',
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
  passkey_challenge_invalid: {
    cause:
      'The passkey answer named a challenge the service never issued, one already answered (a replay), or one issued more than 5 minutes ago. Nothing was changed.',
    fix: 'Press the passkey button again: the console asks for a new challenge each time.',
  },
  passkey_not_recognised: {
    cause:
      'The passkey is not registered with the service, was removed, its member was removed, or its signature did not verify. No session was opened.',
    fix: 'Sign in with a link by email, then register a passkey again on the Passkeys page.',
  },
  passkey_registration_failed: {
    cause:
      "The authenticator's answer did not verify: it was made for another site (origin or relying party id) or another challenge, or the credential is registered already. Nothing was stored.",
    fix: 'Register from the console page of this deployment; a passkey already in the list needs no second registration.',
  },
  passkey_not_found: {
    cause: 'The passkey id names no passkey of the signed-in member (it was removed, or is someone else’s).',
    fix: "Pick a passkey from the console's Passkeys page.",
  },
  passkey_member_only: {
    cause:
      "The session was opened with an API key's link: it stands for the key, not a member, and only members hold passkeys.",
    fix: 'Invite yourself as a member (Members page), sign in with the emailed link, then register the passkey.',
  },
  passkey_limit_reached: {
    cause: 'The signed-in member has 10 passkeys already.',
    fix: 'Remove a passkey you no longer use on the Passkeys page, then register the new one.',
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
