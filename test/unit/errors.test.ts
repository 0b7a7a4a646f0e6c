import { describe, expect, it } from 'vitest';
import { serviceErrors } from '../../shared/app/errors.ts';
import { errorsPage } from '../../shared/docs/errors-page.ts';
import { ApiError, errorEnvelope } from '../../shared/kernel/errors/api-error.ts';
import {
  type CatalogueEntry,
  DEFAULT_RETRY_AFTER_SECONDS,
  type ErrorCode,
  errorCatalogue,
  errorCodeForRegistryCode,
  nonErrorRegistryCodes,
  serviceCodes,
  typeStatuses,
} from '../../shared/kernel/errors/catalogue.ts';

/** Spec section 7, transcribed: code → [HTTP status, type, registry codes]. */
const spec: Record<string, [number, string, string[]]> = {
  product_unavailable_in_jurisdiction: [403, 'permission_error', ['ZZ01']],
  product_not_enabled: [403, 'permission_error', ['ZZ02']],
  registry_unavailable: [503, 'registry_unavailable_error', ['ZZ51']],
  registry_application_error: [502, 'api_error', ['ZZ53']],
  sandbox_product_unavailable: [403, 'permission_error', ['ZZ54']],
  acn_invalid: [400, 'invalid_request_error', ['CE01', 'CD01', 'CR01', 'CC01']],
  company_not_found: [404, 'not_found_error', ['CE03', 'CD07', 'CR03']],
  abn_and_acn_supplied: [400, 'invalid_request_error', ['CE04']],
  abn_invalid: [400, 'invalid_request_error', ['CE10']],
  abn_not_acn_based: [400, 'invalid_request_error', ['CE11']],
  abn_not_found: [404, 'not_found_error', ['CE12', 'CE13']],
  extract_unavailable_for_type: [422, 'invalid_request_error', ['CE51', 'CR51', 'CC51']],
  no_relational_data: [404, 'not_found_error', ['CR02']],
  document_period_conflict: [400, 'invalid_request_error', ['CD02']],
  document_date_range_invalid: [400, 'invalid_request_error', ['CD03', 'CD04']],
  identifier_conflict: [400, 'invalid_request_error', ['CD05', 'CD06']],
  business_name_not_found: [404, 'not_found_error', ['CD08', 'CD09']],
  document_list_unavailable: [422, 'invalid_request_error', ['CD51']],
  no_charges: [404, 'not_found_error', ['CC52']],
  charge_not_found: [404, 'not_found_error', ['CH01']],
  search_scope_invalid: [400, 'invalid_request_error', ['ON02']],
  no_matches: [404, 'not_found_error', ['ON51', 'PN51', 'RP51', 'RR51', 'RB51', 'RQ51', 'RS51', 'RC51']],
  too_many_matches: [422, 'invalid_request_error', ['ON52', 'PN52']],
  name_required: [400, 'invalid_request_error', ['PN01', 'PN02']],
  name_invalid_characters: [400, 'invalid_request_error', ['PN03']],
  birth_date_range_invalid: [400, 'invalid_request_error', ['PN05', 'PN06', 'PN07']],
  extract_required: [402, 'extract_required_error', []],
  extract_not_found: [404, 'not_found_error', []],
  extract_expired: [410, 'invalid_request_error', []],
  extract_owner_mismatch: [403, 'permission_error', []],
  extract_type_invalid: [400, 'invalid_request_error', ['RS02']],
  search_expired: [410, 'invalid_request_error', ['PE01', 'PD01']],
  search_owner_mismatch: [403, 'permission_error', ['PE02', 'PD02']],
  person_not_found: [404, 'not_found_error', ['PE03', 'PD03']],
  person_too_many_roles: [422, 'invalid_request_error', ['PE51']],
  document_number_invalid: [400, 'invalid_request_error', ['DD01', 'DI01']],
  duplicate_document_number: [400, 'invalid_request_error', ['DD02', 'DI07']],
  document_not_found: [404, 'not_found_error', ['DD51', 'DI51']],
  document_not_imaged: [422, 'invalid_request_error', ['DD52', 'DI52']],
  page_range_invalid: [400, 'invalid_request_error', ['DI02', 'DI08', 'DI53']],
  delivery_invalid: [
    400,
    'invalid_request_error',
    ['DI03', 'DI04', 'DI05', 'DI06', 'CC03', 'CC04', 'CC05', 'CC06'],
  ],
  document_too_large_for_delivery: [
    422,
    'invalid_request_error',
    ['DI54', 'DI55', 'DI56', 'DI57', 'CC53', 'CC54', 'CC55', 'CC56'],
  ],
  register_invalid: [400, 'invalid_request_error', ['RP01', 'RQ01', 'RR01', 'RS01', 'RB01', 'RC01']],
  browse_key_too_short: [400, 'invalid_request_error', ['RP02', 'RR02', 'RB02']],
  summary_type_invalid: [400, 'invalid_request_error', ['WS01']],
  week_start_invalid: [400, 'invalid_request_error', ['WS02']],
  summary_unavailable: [404, 'not_found_error', ['WS51']],
  order_not_found: [404, 'not_found_error', ['RO51']],
  order_owner_mismatch: [403, 'permission_error', ['RO01']],
  order_not_ready: [409, 'conflict_error', []],
  order_download_expired: [410, 'invalid_request_error', []],
  unauthorized: [401, 'authentication_error', []],
  rate_limited: [429, 'rate_limit_error', []],
  validation_error: [422, 'invalid_request_error', []],
  idempotency_conflict: [409, 'conflict_error', []],
};

describe('error catalogue', () => {
  it.each(Object.entries(spec))(
    '%s has the status, type and registry codes of spec section 7',
    (code, expected) => {
      const entry = serviceErrors[code as ErrorCode];
      expect(entry).toBeDefined();
      expect([entry.status, entry.type, [...entry.registryCodes]]).toEqual(expected);
    },
  );

  it("lists the spec's codes in the spec's order, whether the kernel or a capability defines them", () => {
    expect(Object.keys(serviceErrors).filter((code) => code in spec)).toEqual(Object.keys(spec));
  });

  it('maps every registry code back to its error', () => {
    for (const [code, [, , registryCodes]] of Object.entries(spec)) {
      for (const registryCode of registryCodes) expect(errorCodeForRegistryCode(registryCode)).toBe(code);
    }
    expect(errorCodeForRegistryCode('XX99')).toBeUndefined();
  });

  it('holds spec 7.2 as written: the types, their statuses and which are retried', () => {
    const table = Object.fromEntries(
      Object.entries(typeStatuses).map(([type, { statuses, retried }]) => [type, { statuses, retried }]),
    );
    expect(table).toStrictEqual({
      invalid_request_error: { statuses: [400, 410, 422], retried: false },
      authentication_error: { statuses: [401], retried: false },
      extract_required_error: { statuses: [402], retried: false },
      permission_error: { statuses: [403], retried: false },
      not_found_error: { statuses: [404], retried: false },
      conflict_error: { statuses: [409], retried: false },
      rate_limit_error: { statuses: [429], retried: true },
      registry_unavailable_error: { statuses: [503], retried: true },
      api_error: { statuses: [500, 502], retried: true },
    });
    expect(typeStatuses.conflict_error.retry).toBe('No');
    expect(typeStatuses.rate_limit_error.retry).toBe('Yes, after Retry-After');
    expect(typeStatuses.api_error.retry).toBe('Yes, once, then contact support');
  });

  it('pairs every code with a status its type has in spec 7.2, with no exception', () => {
    const outside: string[] = [];
    for (const [code, entry] of Object.entries(serviceErrors) as [ErrorCode, CatalogueEntry][]) {
      for (const status of [entry.status, ...(entry.alternateStatuses ?? [])]) {
        if (!typeStatuses[entry.type].statuses.includes(status))
          outside.push(`${code} ${status} ${entry.type}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('a database out of reach is 503 registry_unavailable_error, retried with backoff, never api_error', () => {
    const error = new ApiError('service_unavailable');
    expect([error.status, error.type, error.headers]).toEqual([
      503,
      'registry_unavailable_error',
      { 'Retry-After': '5' },
    ]);
  });

  it('a duplicate of a request in progress is 429 rate_limit_error (retried after Retry-After), never a 409', () => {
    const error = new ApiError('idempotency_key_in_use', { headers: { 'Retry-After': '7' } });
    expect([error.status, error.type, error.headers]).toEqual([
      429,
      'rate_limit_error',
      { 'Retry-After': '7' },
    ]);
  });

  it('gives every answer of a retried status a Retry-After: its own wait, else the status default', () => {
    for (const [code, entry] of Object.entries(serviceErrors) as [ErrorCode, CatalogueEntry][]) {
      const retried = typeStatuses[entry.type].retried;
      const headers = new ApiError(code).headers;
      if (retried)
        expect(headers, code).toEqual({ 'Retry-After': String(DEFAULT_RETRY_AFTER_SECONDS[entry.status]) });
      else expect(headers, code).toEqual({});
    }
    expect(new ApiError('rate_limited', { headers: { 'retry-after': '9' } }).headers).toEqual({
      'retry-after': '9',
    });
    expect(new ApiError('internal_error').headers).toEqual({ 'Retry-After': '1' });
    expect(new ApiError('registry_application_error').headers).toEqual({ 'Retry-After': '1' });
  });

  it('keeps WS52 (summary_empty) as a 200 outcome, never an error', () => {
    expect(nonErrorRegistryCodes.summary_empty).toEqual({ status: 200, registryCodes: ['WS52'] });
    expect(errorCodeForRegistryCode('WS52')).toBeUndefined();
  });

  it('adds only the documented service codes beyond the spec', () => {
    // A capability's codes say themselves whether the spec has them (its error-guide.ts).
    const extra = Object.keys(serviceErrors).filter((code) => !(code in spec));
    expect(
      Object.entries(serviceErrors)
        .filter(([, entry]) => entry.addedByService)
        .map(([code]) => code)
        .sort(),
    ).toEqual(extra.sort());
    expect(extra).toEqual(
      expect.arrayContaining([
        'monitor_not_found',
        'monitoring_sandbox_only',
        'code_table_not_found',
        'offline_search_not_found',
        'sandbox_simulation_invalid',
        'event_not_found',
        'webhook_url_not_allowed',
        'spend_cap_exceeded',
      ]),
    );
    const kernelExtra = Object.keys(errorCatalogue).filter((code) => !(code in spec));
    expect([...serviceCodes].sort()).toEqual(kernelExtra.sort());
    expect(kernelExtra.sort()).toEqual([
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
  });
});

describe('error envelope', () => {
  it('holds every field of spec 7.1 and links the code', () => {
    const error = new ApiError('person_not_found', { param: 'personIds[3]', registryCode: 'PE03' });
    expect(errorEnvelope(error, 'req_1', 'https://docs.example/')).toEqual({
      error: {
        type: 'not_found_error',
        code: 'person_not_found',
        message: serviceErrors.person_not_found.message,
        param: 'personIds[3]',
        registryCode: 'PE03',
        requestId: 'req_1',
        docUrl: 'https://docs.example/errors#person_not_found',
      },
    });
  });

  it('carries details only when there are some', () => {
    const error = new ApiError('too_many_matches', { details: { counts: { returned: 0, found: 250 } } });
    expect(errorEnvelope(error, 'req_2', 'https://d').error.details).toEqual({
      counts: { returned: 0, found: 250 },
    });
  });

  it('allows validation_error as 400 for cursors but no status the catalogue does not list', () => {
    expect(new ApiError('validation_error', { status: 400, param: 'cursor' }).status).toBe(400);
    expect(() => new ApiError('unauthorized', { status: 403 })).toThrow();
  });

  it('gives request_too_large 400 invalid_request_error (not 413 or 431, which 7.2 does not list), nothing else', () => {
    expect([new ApiError('request_too_large').status, new ApiError('request_too_large').type]).toEqual([
      400,
      'invalid_request_error',
    ]);
    expect(() => new ApiError('request_too_large', { status: 413 })).toThrow();
    expect(() => new ApiError('request_too_large', { status: 431 })).toThrow();
  });
});

describe('the error reference page (/docs/errors)', () => {
  const html = errorsPage(serviceErrors);
  const row = (code: string) => html.match(new RegExp(`<tr id="${code}">.*?</tr>`))?.[0] ?? '';

  it('gives every code the retry rule of its type (spec 7.2), and marks the codes this service adds', () => {
    for (const [code, entry] of Object.entries(serviceErrors) as [ErrorCode, CatalogueEntry][]) {
      expect(row(code), code).toContain(`<td>${typeStatuses[entry.type].retry}</td>`);
      expect(row(code).includes('(added by this service)'), code).toBe(serviceErrors[code].addedByService);
    }
    expect(row('idempotency_key_in_use')).toContain(
      '<td>429</td><td><code>rate_limit_error</code></td><td>Yes, after Retry-After</td>',
    );
    expect(row('service_unavailable')).toContain(
      '<td>503</td><td><code>registry_unavailable_error</code></td><td>Yes, with backoff</td>',
    );
    expect(row('idempotency_conflict')).toContain(
      '<td>409</td><td><code>conflict_error</code></td><td>No</td>',
    );
  });
});
