/**
 * The one error catalogue: every code of spec section 7 (plus the few the service adds for
 * platform concerns), with its type, HTTP status and the registry codes that map to it.
 * Nothing else in the code base decides a status or a type for an error.
 */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'extract_required_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'registry_unavailable_error'
  | 'api_error';

export interface CatalogueEntry {
  readonly type: ErrorType;
  readonly status: number;
  /** Registry rejection codes that surface as this error. */
  readonly registryCodes: readonly string[];
  /** Default developer message; call sites may give a more specific one. */
  readonly message: string;
  /** Other statuses the spec allows for the same code (validation_error is 400 for cursor misuse). */
  readonly alternateStatuses?: readonly number[];
}

/**
 * Spec 7.2, the one table of types and statuses: each type with the statuses it may be sent
 * with, and whether a client retries it. Every catalogue entry keeps to it, with no exception
 * (test/unit/errors.test.ts).
 */
export const typeStatuses: Readonly<
  Record<ErrorType, { statuses: readonly number[]; retried: boolean; retry: string }>
> = {
  invalid_request_error: { statuses: [400, 410, 422], retried: false, retry: 'No; fix the request' },
  authentication_error: { statuses: [401], retried: false, retry: 'No' },
  extract_required_error: {
    statuses: [402],
    retried: false,
    retry: 'After purchasing the extract in details.purchase; a 402 never incurs a fee',
  },
  permission_error: { statuses: [403], retried: false, retry: 'No' },
  not_found_error: { statuses: [404], retried: false, retry: 'No' },
  conflict_error: { statuses: [409], retried: false, retry: 'No' },
  rate_limit_error: { statuses: [429], retried: true, retry: 'Yes, after Retry-After' },
  registry_unavailable_error: { statuses: [503], retried: true, retry: 'Yes, with backoff' },
  api_error: { statuses: [500, 502], retried: true, retry: 'Yes, once, then contact support' },
};

/**
 * Seconds a client waits before retrying an answer of a retried status (429, 500, 502, 503) when
 * the code that answers it computes no wait of its own: every retryable answer carries
 * `Retry-After` (docs/decisions/0043-retryable-answers.md).
 */
export const DEFAULT_RETRY_AFTER_SECONDS: Readonly<Record<number, number>> = {
  429: 1,
  500: 1,
  502: 1,
  503: 5,
};

export const entry = (
  type: ErrorType,
  status: number,
  registryCodes: readonly string[],
  message: string,
  alternateStatuses?: readonly number[],
): CatalogueEntry => ({
  type,
  status,
  registryCodes,
  message,
  ...(alternateStatuses ? { alternateStatuses } : {}),
});

const range = (prefix: string, from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(2, '0')}`);

export const errorCatalogue = {
  // 7.3 universal registry errors
  product_unavailable_in_jurisdiction: entry(
    'permission_error',
    403,
    ['ZZ01'],
    'This product is not offered for the requested jurisdiction.',
  ),
  product_not_enabled: entry(
    'permission_error',
    403,
    ['ZZ02'],
    'This product or jurisdiction is not enabled on your account.',
  ),
  registry_unavailable: entry(
    'registry_unavailable_error',
    503,
    ['ZZ51'],
    'The registry is unavailable, usually for a maintenance window. Retry after the Retry-After delay.',
  ),
  registry_application_error: entry(
    'api_error',
    502,
    ['ZZ53'],
    'The registry reported an application error. Retry once.',
  ),
  sandbox_product_unavailable: entry(
    'permission_error',
    403,
    ['ZZ54'],
    'Test keys cannot use this product; use a live key.',
  ),

  // 7.4 company and charge errors
  acn_invalid: entry(
    'invalid_request_error',
    400,
    ['CE01', 'CD01', 'CR01', 'CC01'],
    'The company number must be nine digits with a valid check digit.',
  ),
  company_not_found: entry(
    'not_found_error',
    404,
    ['CE03', 'CD07', 'CR03'],
    'No organisation has this identifier.',
  ),
  abn_invalid: entry('invalid_request_error', 400, ['CE10'], 'The ABN fails its check digit test.'),
  abn_not_acn_based: entry(
    'invalid_request_error',
    400,
    ['CE11'],
    'The ABN is valid but does not embed a valid ACN.',
  ),
  abn_not_found: entry('not_found_error', 404, ['CE12', 'CE13'], 'No company matches this ABN.'),
  extract_unavailable_for_type: entry(
    'invalid_request_error',
    422,
    ['CE51', 'CR51', 'CC51'],
    'This organisation type has no such extract product. Nothing was charged.',
  ),
  identifier_conflict: entry(
    'invalid_request_error',
    400,
    ['CD05', 'CD06'],
    'More than one kind of identifier was supplied, or a state number without a jurisdiction.',
  ),
  no_charges: entry('not_found_error', 404, ['CC52'], 'The company has no charges.'),

  // 7.5 search errors
  search_scope_invalid: entry('invalid_request_error', 400, ['ON02'], 'Unknown search scope.'),
  no_matches: entry(
    'not_found_error',
    404,
    ['ON51', 'PN51', 'RP51', 'RR51', 'RB51', 'RQ51', 'RS51', 'RC51'],
    'Nothing matched the search.',
  ),
  too_many_matches: entry(
    'invalid_request_error',
    422,
    ['ON52', 'PN52'],
    'Too many names matched; narrow the search.',
  ),
  name_invalid_characters: entry(
    'invalid_request_error',
    400,
    ['PN03'],
    'Names may hold only letters, hyphens, apostrophes and spaces.',
  ),

  // 7.6 extract errors
  extract_required: entry(
    'extract_required_error',
    402,
    [],
    'No held extract contains this data; purchase the extract in details.purchase.',
  ),
  extract_not_found: entry('not_found_error', 404, [], 'No extract with this id.'),
  extract_expired: entry(
    'invalid_request_error',
    410,
    [],
    'The extract is older than 12 months and can no longer be read.',
  ),
  extract_owner_mismatch: entry(
    'permission_error',
    403,
    [],
    'The extract belongs to another account or environment.',
  ),
  extract_type_invalid: entry('invalid_request_error', 400, ['RS02'], 'The extract type is invalid.'),

  // 7.7 people, documents, registers, weekly summaries, platform (orders: shared/orders/errors.ts)
  search_owner_mismatch: entry(
    'permission_error',
    403,
    ['PE02', 'PD02'],
    'The search or person id belongs to another account or environment.',
  ),
  document_number_invalid: entry(
    'invalid_request_error',
    400,
    ['DD01', 'DI01'],
    'A document number is nine characters starting with a digit.',
  ),
  duplicate_document_number: entry(
    'invalid_request_error',
    400,
    ['DD02', 'DI07'],
    'The same document number appears twice.',
  ),
  document_not_found: entry('not_found_error', 404, ['DD51', 'DI51'], 'No such document.'),
  document_not_imaged: entry(
    'invalid_request_error',
    422,
    ['DD52', 'DI52'],
    'The document is not in the imaging system.',
  ),
  page_range_invalid: entry(
    'invalid_request_error',
    400,
    ['DI02', 'DI08', 'DI53'],
    'The page range is invalid.',
  ),
  delivery_invalid: entry(
    'invalid_request_error',
    400,
    [...range('DI', 3, 6), ...range('CC', 3, 6)],
    'The delivery instructions are invalid or incomplete.',
  ),
  document_too_large_for_delivery: entry(
    'invalid_request_error',
    422,
    [...range('DI', 54, 57), ...range('CC', 53, 56)],
    'The document is too large for this delivery method.',
  ),
  unauthorized: entry(
    'authentication_error',
    401,
    [],
    'Missing, malformed, revoked or expired API key. Send Authorization: Bearer <API_KEY>.',
  ),
  csrf_token_invalid: entry(
    'permission_error',
    403,
    [],
    'A change made with a console session needs its CSRF token in X-CSRF-Token.',
  ),
  console_role_forbidden: entry(
    'permission_error',
    403,
    [],
    "The console member's role may not use this route (members and roles: docs/console.md).",
  ),
  member_not_found: entry('not_found_error', 404, [], 'The account has no console member with this id.'),
  member_already_exists: entry(
    'conflict_error',
    409,
    [],
    'This email address is a member of the account already (in this environment).',
  ),
  passkey_challenge_invalid: entry(
    'invalid_request_error',
    400,
    [],
    'The passkey answer is to a challenge the service did not issue, one answered already, or one older than 5 minutes. Start again.',
  ),
  passkey_not_recognised: entry(
    'authentication_error',
    401,
    [],
    'This passkey signs in no member: it is not registered, was removed, or its member was removed.',
  ),
  passkey_registration_failed: entry(
    'invalid_request_error',
    400,
    [],
    "The authenticator's answer did not verify for this site (origin, relying party or challenge).",
  ),
  passkey_not_found: entry('not_found_error', 404, [], 'The signed-in member has no passkey with this id.'),
  passkey_member_only: entry(
    'permission_error',
    403,
    [],
    "Passkeys belong to members: a session opened with an API key's link has none.",
  ),
  passkey_limit_reached: entry(
    'invalid_request_error',
    400,
    [],
    'The member has 10 passkeys, the most the console keeps. Remove one first.',
  ),
  member_is_last_admin: entry(
    'conflict_error',
    409,
    [],
    'The member is the last admin of the account in this environment: make another member an admin first.',
  ),
  api_key_not_found: entry('not_found_error', 404, [], 'The account has no API key with this id.'),
  request_not_found: entry(
    'not_found_error',
    404,
    [],
    'No request of this account and environment has this id in the last 30 days.',
  ),
  api_key_limit_reached: entry(
    'invalid_request_error',
    400,
    [],
    'The account has 20 usable API keys in this environment, the most the console creates. Revoke one first.',
  ),
  api_key_not_active: entry(
    'conflict_error',
    409,
    [],
    'The API key is revoked or expired, or was changed while this change was made.',
  ),
  rate_limited: entry(
    'rate_limit_error',
    429,
    [],
    'Too many requests for this API key. Retry after the Retry-After delay.',
  ),
  validation_error: entry('invalid_request_error', 422, [], 'A parameter failed validation.', [400]),
  idempotency_conflict: entry(
    'conflict_error',
    409,
    [],
    'This Idempotency-Key was used in the last 24 hours with a different request.',
  ),
  // Not a 409: spec 7.2 says a conflict_error is never retried, and this one must be (the first
  // request may have been billed). A 429 is retried after Retry-After by every client.
  idempotency_key_in_use: entry(
    'rate_limit_error',
    429,
    [],
    'A request with this Idempotency-Key and the same body is still in progress. Retry after the Retry-After delay, with the same key, to get its result.',
  ),

  // Service-level codes the spec leaves to the implementation (see
  // docs/decisions/0013-error-codes-the-spec-does-not-name.md)
  invalid_json: entry('invalid_request_error', 400, [], 'The request body is not valid JSON.'),
  // 400, not HTTP's 413 or 431: spec 7.2 pairs invalid_request_error with 400, 410 and 422 only.
  request_too_large: entry(
    'invalid_request_error',
    400,
    [],
    'The request is too large: the body may be at most 1 MiB, and the request line and headers together at most 10 KB.',
  ),
  route_not_found: entry('not_found_error', 404, [], 'No endpoint matches this method and path.'),
  internal_error: entry(
    'api_error',
    500,
    [],
    'Something went wrong on our side. Retry once, then contact support with the requestId.',
  ),
  // 503 is registry_unavailable_error's status in spec 7.2 (retried with backoff), whatever is
  // out of reach: the registry, or our own database.
  service_unavailable: entry(
    'registry_unavailable_error',
    503,
    [],
    'The request ran out of time on our side, or our database could not be reached, before it could finish. Retry with backoff.',
  ),
} as const satisfies Record<string, CatalogueEntry>;

/** A code of the kernel's catalogue: the spec's and the platform's, which no one capability owns. */
export type KernelErrorCode = keyof typeof errorCatalogue;

/**
 * The codes capabilities declare in their own `errors.ts` (`defineErrors`, errors/define.ts): each
 * adds its codes to this interface by module augmentation, so `ErrorCode` knows them while the
 * kernel knows no capability.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each capability's augmentation
export interface CapabilityErrorCodes {}

export type ErrorCode = KernelErrorCode | keyof CapabilityErrorCodes;

/**
 * The codes this service adds to spec section 7
 * (docs/decisions/0013-error-codes-the-spec-does-not-name.md): the error reference marks them, with
 * their type's retry rule like every code.
 */
export const serviceCodes: ReadonlySet<KernelErrorCode> = new Set<KernelErrorCode>([
  'api_key_limit_reached',
  'api_key_not_active',
  'api_key_not_found',
  'console_role_forbidden',
  'csrf_token_invalid',
  'idempotency_key_in_use',
  'internal_error',
  'invalid_json',
  'member_already_exists',
  'member_is_last_admin',
  'member_not_found',
  'passkey_challenge_invalid',
  'passkey_limit_reached',
  'passkey_member_only',
  'passkey_not_found',
  'passkey_not_recognised',
  'passkey_registration_failed',
  'request_not_found',
  'request_too_large',
  'route_not_found',
  'service_unavailable',
]);

/**
 * WS52 is the registry's "empty weekly summary": a success (HTTP 200, totalCount 0), never an
 * envelope. It is listed here so the registry-code map is complete.
 */
export const nonErrorRegistryCodes = { summary_empty: { status: 200, registryCodes: ['WS52'] } } as const;

const byRegistryCode = new Map<string, ErrorCode>();
for (const [code, e] of Object.entries(errorCatalogue) as [KernelErrorCode, CatalogueEntry][]) {
  for (const registryCode of e.registryCodes) byRegistryCode.set(registryCode, code);
}

/** The service error for a registry rejection code, if the catalogue knows it. */
export function errorCodeForRegistryCode(registryCode: string): ErrorCode | undefined {
  return byRegistryCode.get(registryCode);
}

const defined = new Map<string, CatalogueEntry>();

/**
 * A capability's own codes (its `errors.ts`), known to `ApiError` and the registry-code map from
 * the moment its module loads: a module that throws one imports it, so a function bundles only the
 * codes its route can answer with. A code the kernel or another capability already has is refused.
 */
export function defineErrors<const T extends Readonly<Record<string, CatalogueEntry>>>(definitions: T): T {
  for (const [code, definition] of Object.entries(definitions)) {
    if (Object.hasOwn(errorCatalogue, code) || (defined.has(code) && defined.get(code) !== definition)) {
      throw new Error(`error code ${code} is defined twice`);
    }
    defined.set(code, definition);
    for (const registryCode of definition.registryCodes) byRegistryCode.set(registryCode, code as ErrorCode);
  }
  return definitions;
}

/** The catalogue entry of a code: the kernel's, or the one its capability defined. */
export function catalogueEntry(code: ErrorCode): CatalogueEntry {
  const found: CatalogueEntry | undefined = Object.hasOwn(errorCatalogue, code)
    ? errorCatalogue[code as KernelErrorCode]
    : defined.get(code);
  if (found === undefined) throw new Error(`error code ${code} is not defined (is its errors.ts imported?)`);
  return found;
}
