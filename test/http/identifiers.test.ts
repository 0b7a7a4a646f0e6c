import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  call,
  createKey,
  expectError,
  type TestKey,
  validationError,
} from '../support/api.ts';

/**
 * GET /v1/identifiers/{value} (spec document 2, section 4.8) over real HTTP.
 * Real published numbers: ABN 51 824 753 556 (tax office), ACNs 000 000 019 and 004 085 616
 * (registry check-digit examples), ABN 33 051 775 556 (Telstra, embeds ACN 051 775 556).
 */

interface IdentifierBody {
  object: string;
  input: string;
  type: string;
  valid: boolean;
  normalized: string | null;
  formatted: string | null;
  acnFromAbn: string | null;
  meta: { billable: boolean; product: string | null; requestId: string };
}

let key: TestKey;
let liveKey: TestKey;

beforeAll(async () => {
  key = await createKey('test');
  liveKey = await createKey('live');
});

const identify = (encodedValue: string, query = '', secret: string = key.secret) =>
  call<IdentifierBody>(`/v1/identifiers/${encodedValue}${query}`, { key: secret });

/** The success body, with its meta checked against the X-Request-Id header. */
function expectIdentifier(
  response: ApiResponse<IdentifierBody>,
  expected: Omit<IdentifierBody, 'object' | 'meta'>,
) {
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_./);
  expect(response.body).toStrictEqual({
    object: 'identifier',
    ...expected,
    meta: { billable: false, product: null, requestId },
  });
}

const unknown = (input: string) => ({
  input,
  type: 'unknown',
  valid: false,
  normalized: null,
  formatted: null,
  acnFromAbn: null,
});

describe('GET /v1/identifiers/{value}: ABNs', () => {
  it('validates the tax office ABN written with spaces; its last nine digits are not an ACN', async () => {
    expectIdentifier(await identify('51%20824%20753%20556'), {
      input: '51 824 753 556',
      type: 'abn',
      valid: true,
      normalized: '51824753556',
      formatted: '51 824 753 556',
      acnFromAbn: null,
    });
  });

  it('validates the same ABN without spaces, echoing the input as supplied', async () => {
    expectIdentifier(await identify('51824753556'), {
      input: '51824753556',
      type: 'abn',
      valid: true,
      normalized: '51824753556',
      formatted: '51 824 753 556',
      acnFromAbn: null,
    });
  });

  it('gives acnFromAbn for the Telstra ABN, which embeds ACN 051 775 556', async () => {
    expectIdentifier(await identify('33%20051%20775%20556'), {
      input: '33 051 775 556',
      type: 'abn',
      valid: true,
      normalized: '33051775556',
      formatted: '33 051 775 556',
      acnFromAbn: '051775556',
    });
  });

  it('reports a changed digit as valid false with normalized and formatted still set', async () => {
    expectIdentifier(await identify('51824753557'), {
      input: '51824753557',
      type: 'abn',
      valid: false,
      normalized: '51824753557',
      formatted: '51 824 753 557',
      acnFromAbn: null,
    });
  });

  it('gives no acnFromAbn for an invalid ABN even when its last nine digits are a valid ACN', async () => {
    // 34 051 775 556: Telstra's ABN with the second digit changed; 051 775 556 still passes.
    expectIdentifier(await identify('34%20051%20775%20556'), {
      input: '34 051 775 556',
      type: 'abn',
      valid: false,
      normalized: '34051775556',
      formatted: '34 051 775 556',
      acnFromAbn: null,
    });
  });

  it.each(['acn', 'arbn', 'arsn'])('ignores hint=%s on eleven digits: still an ABN', async (hint) => {
    expectIdentifier(await identify('33051775556', `?hint=${hint}`), {
      input: '33051775556',
      type: 'abn',
      valid: true,
      normalized: '33051775556',
      formatted: '33 051 775 556',
      acnFromAbn: '051775556',
    });
  });

  it('accepts hint=abn on eleven digits', async () => {
    expectIdentifier(await identify('51824753556', '?hint=abn'), {
      input: '51824753556',
      type: 'abn',
      valid: true,
      normalized: '51824753556',
      formatted: '51 824 753 556',
      acnFromAbn: null,
    });
  });
});

describe('GET /v1/identifiers/{value}: nine-digit numbers', () => {
  it('is an ACN by default; leading zeros are kept in a string', async () => {
    const response = await identify('000000019');
    expectIdentifier(response, {
      input: '000000019',
      type: 'acn',
      valid: true,
      normalized: '000000019',
      formatted: '000 000 019',
      acnFromAbn: null,
    });
    expect(response.text).toContain('"normalized":"000000019"');
  });

  it('validates ACN 004 085 616 written with spaces', async () => {
    expectIdentifier(await identify('004%20085%20616'), {
      input: '004 085 616',
      type: 'acn',
      valid: true,
      normalized: '004085616',
      formatted: '004 085 616',
      acnFromAbn: null,
    });
  });

  it('ignores irregular, leading and trailing spaces', async () => {
    expectIdentifier(await identify('%20%200040%2085616%20'), {
      input: '  0040 85616 ',
      type: 'acn',
      valid: true,
      normalized: '004085616',
      formatted: '004 085 616',
      acnFromAbn: null,
    });
  });

  it.each([
    ['000000018', '000 000 018'],
    ['004085617', '004 085 617'],
    ['004185616', '004 185 616'],
  ])('reports %s (one digit changed) as valid false, formatted %s', async (value, formatted) => {
    expectIdentifier(await identify(value), {
      input: value,
      type: 'acn',
      valid: false,
      normalized: value,
      formatted,
      acnFromAbn: null,
    });
  });

  it.each([
    ['arbn', 'arbn'],
    ['arsn', 'arsn'],
    ['acn', 'acn'],
    ['abn', 'acn'],
  ])('with hint=%s is type %s', async (hint, type) => {
    expectIdentifier(await identify('000000019', `?hint=${hint}`), {
      input: '000000019',
      type,
      valid: true,
      normalized: '000000019',
      formatted: '000 000 019',
      acnFromAbn: null,
    });
  });

  it('applies the nine-digit check under hint=arsn too', async () => {
    expectIdentifier(await identify('000000018', '?hint=arsn'), {
      input: '000000018',
      type: 'arsn',
      valid: false,
      normalized: '000000018',
      formatted: '000 000 018',
      acnFromAbn: null,
    });
  });
});

describe('GET /v1/identifiers/{value}: anything else is type unknown', () => {
  it.each([
    ['00000001', '00000001', 'eight digits'],
    ['0000000190', '0000000190', 'ten digits'],
    ['518247535560', '518247535560', 'twelve digits'],
    ['000-000-019', '000-000-019', 'hyphens'],
    ['000.000.019', '000.000.019', 'dots'],
    ['000+000+019', '000+000+019', 'a plus sign, which a path does not decode to a space'],
    ['ACN000000019', 'ACN000000019', 'a prefix'],
    ['000%09000%09019', '000\t000\t019', 'tabs'],
    ['000%C2%A0000%C2%A0019', '000\u00a0000\u00a0019', 'non-breaking spaces'],
    ['%E2%91%A0', '①', 'a circled digit'],
    [
      '%D9%A0%D9%A0%D9%A0%D9%A0%D9%A0%D9%A0%D9%A0%D9%A1%D9%A9',
      '٠٠٠٠٠٠٠١٩',
      'nine Arabic-Indic digits (000000019)',
    ],
    ['%D9%A1', '١', 'one Arabic-Indic digit'],
    [
      '%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%91%EF%BC%99',
      '０００００００１９',
      'full-width digits',
    ],
    ['%20', ' ', 'a single space'],
    ['%20%20%20', '   ', 'spaces only'],
    ['%2F', '/', 'an encoded slash'],
    ['0'.repeat(64), '0'.repeat(64), 'sixty-four digits (the longest value allowed)'],
  ])('%s (%s)', async (encoded, input) => {
    expectIdentifier(await identify(encoded), unknown(input));
  });

  it('stays unknown whatever the hint', async () => {
    expectIdentifier(await identify('12345', '?hint=acn'), unknown('12345'));
    expectIdentifier(await identify('000-000-019', '?hint=abn'), unknown('000-000-019'));
  });

  it('echoes a value that is not valid percent-encoding as received, type unknown', async () => {
    expectIdentifier(await identify('%ZZ'), unknown('%ZZ'));
  });
});

describe('GET /v1/identifiers/{value}: validation errors', () => {
  it('rejects a value over 64 characters with 422 on value', async () => {
    expectError(await identify('0'.repeat(65)), 422, validationError('value'));
  });

  it('counts the 64 characters after URL decoding', async () => {
    expectIdentifier(await identify('%20'.repeat(64)), unknown(' '.repeat(64)));
    expectError(await identify('%20'.repeat(65)), 422, validationError('value'));
  });

  it.each([
    ['ACN', 'wrong case'],
    ['ABN', 'wrong case'],
    ['abc', 'not a hint'],
    ['unknown', 'a type but not a hint'],
    ['', 'empty'],
    ['acn%20', 'trailing space'],
  ])('rejects hint=%s (%s) with 422 on hint', async (hint) => {
    expectError(await identify('000000019', `?hint=${hint}`), 422, validationError('hint'));
  });

  it('rejects a repeated hint with 422 on hint', async () => {
    expectError(await identify('000000019', '?hint=acn&hint=abn'), 422, validationError('hint'));
    expectError(await identify('000000019', '?hint=acn&hint=acn'), 422, validationError('hint'));
  });

  it('rejects an unknown query parameter by name', async () => {
    expectError(await identify('000000019', '?foo=1'), 422, validationError('foo'));
    expectError(await identify('000000019', '?hint=acn&type=acn'), 422, validationError('type'));
  });
});

describe('GET /v1/identifiers/{value}: authentication and environments', () => {
  it('refuses a request without Authorization with 401 unauthorized', async () => {
    const response = await call('/v1/identifiers/000000019');
    expectError(response, 401, { type: 'authentication_error', code: 'unauthorized', param: null });
  });

  it.each([
    ['Bearer', 'no token'],
    ['Basic dXNlcjpwYXNz', 'another scheme'],
    ['Bearer sk_test_doesnotexist0000000000000000', 'an unknown key'],
  ])('refuses Authorization %j (%s) with 401', async (authorization) => {
    const response = await call('/v1/identifiers/000000019', { headers: { Authorization: authorization } });
    expectError(response, 401, { type: 'authentication_error', code: 'unauthorized', param: null });
  });

  it('answers test and live keys identically apart from the request id, never billing', async () => {
    for (const [value, query] of [
      ['51%20824%20753%20556', ''],
      ['33051775556', ''],
      ['000000019', '?hint=arbn'],
      ['004085617', ''],
      ['%E2%91%A0', ''],
    ] as const) {
      const sandbox = await identify(value, query, key.secret);
      const live = await identify(value, query, liveKey.secret);
      expect(sandbox.status).toBe(200);
      expect(live.status).toBe(200);
      expect(live.body.meta).toStrictEqual({
        billable: false,
        product: null,
        requestId: live.headers.get('x-request-id'),
      });
      expect(live.body.meta.requestId).not.toBe(sandbox.body.meta.requestId);
      const { meta: _sandboxMeta, ...sandboxRest } = sandbox.body;
      const { meta: _liveMeta, ...liveRest } = live.body;
      expect(liveRest).toStrictEqual(sandboxRest);
    }
  });

  it('sends the rate limit headers on a success and on a validation error', async () => {
    for (const response of [await identify('000000019'), await identify('000000019', '?hint=ACN')]) {
      expect(response.headers.get('ratelimit-limit')).toBe('600');
      expect(Number(response.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(response.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    }
  });
});
