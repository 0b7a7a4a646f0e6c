import { describe, expect, it } from 'vitest';
import {
  acnFromAbn,
  checkIdentifier,
  formatAbn,
  formatNineDigit,
  type IdentifierCheck,
  isValidAbn,
  isValidAcn,
} from '../../shared/kernel/identifiers.ts';

/**
 * Real published numbers only (spec document 2, section 4.8):
 * - ACN 000 000 019 and the rest of the registry's check-digit example list;
 * - ACN 004 085 616 and ABN 53 004 085 616 (the registry's and tax office's worked example);
 * - ABN 51 824 753 556, the tax office's own ABN (last nine digits are not a valid ACN);
 * - ABN 33 051 775 556 (Telstra), which embeds ACN 051 775 556.
 * Invalid numbers are derived from these by changing one digit.
 */
const registryExampleAcns = [
  '000000019',
  '000250000',
  '000500005',
  '000750005',
  '001000004',
  '001250004',
  '001500009',
  '001749999',
  '001999999',
  '002249998',
  '002499998',
  '002749993',
  '002999993',
  '003249992',
  '003499992',
  '003749988',
  '003999988',
  '004249987',
  '004499987',
  '004749982',
  '004999982',
  '005249981',
  '005499981',
  '005749986',
  '005999977',
  '010249966',
  '010499966',
  '010749961',
  '004085616',
  '051775556',
];

const ATO_ABN = '51824753556';
const TELSTRA_ABN = '33051775556';
const TELSTRA_ACN = '051775556';
const EXAMPLE_ABN = '53004085616';
const EXAMPLE_ACN = '004085616';

const ACN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 1];

/** Every string that differs from `value` in exactly one digit. */
function singleDigitMutations(
  value: string,
): { mutated: string; position: number; from: number; to: number }[] {
  const out: { mutated: string; position: number; from: number; to: number }[] = [];
  for (let position = 0; position < value.length; position++) {
    const from = Number(value[position]);
    for (let to = 0; to <= 9; to++) {
      if (to === from) continue;
      out.push({
        mutated: `${value.slice(0, position)}${to}${value.slice(position + 1)}`,
        position,
        from,
        to,
      });
    }
  }
  return out;
}

const unknownOf = (input: string): IdentifierCheck => ({
  object: 'identifier',
  input,
  type: 'unknown',
  valid: false,
  normalized: null,
  formatted: null,
  acnFromAbn: null,
});

describe('isValidAcn', () => {
  it.each(registryExampleAcns)('accepts the published example %s', (acn) => {
    expect(isValidAcn(acn)).toBe(true);
  });

  it('uses check digit 0 when 10 minus the remainder is 10 (000 250 000: sum 30)', () => {
    expect(isValidAcn('000250000')).toBe(true);
    for (let check = 1; check <= 9; check++) expect(isValidAcn(`00025000${check}`)).toBe(false);
  });

  it('accepts exactly one check digit for 000 000 01x', () => {
    const valid = Array.from({ length: 10 }, (_, d) => `00000001${d}`).filter(isValidAcn);
    expect(valid).toEqual(['000000019']);
  });

  it('rejects every single-digit change whose weighted difference is not a multiple of 10', () => {
    // The ACN weights 8, 6, 5, 4 and 2 share a factor with 10, so a change of 5 (or, for weight 5,
    // any even change) leaves the sum modulo 10 unchanged: those mutations are still valid numbers.
    // Every other single-digit change, and every change of the check digit, must be rejected.
    const mutations = singleDigitMutations('000000019');
    expect(mutations).toHaveLength(81);
    const stillValid: string[] = [];
    for (const { mutated, position, from, to } of mutations) {
      const weight = position < 8 ? (ACN_WEIGHTS[position] as number) : null;
      const undetectable = weight !== null && (weight * (to - from)) % 10 === 0;
      expect(isValidAcn(mutated), `${mutated} (position ${position}, ${from} -> ${to})`).toBe(undetectable);
      if (undetectable) stillValid.push(mutated);
    }
    expect(stillValid.sort()).toEqual([
      '000000519',
      '000050019',
      '000200019',
      '000400019',
      '000600019',
      '000800019',
      '005000019',
      '500000019',
    ]);
  });

  it('rejects every change of the check digit of 004 085 616', () => {
    for (const { mutated } of singleDigitMutations(EXAMPLE_ACN).filter((m) => m.position === 8)) {
      expect(isValidAcn(mutated)).toBe(false);
    }
  });

  it.each([
    ['', 'empty'],
    ['00000019', 'eight digits'],
    ['0000000019', 'ten digits'],
    ['000 000 019', 'spaces (the caller must normalise)'],
    ['00000001a', 'a letter'],
    ['-00000019', 'a sign'],
    ['００００００019', 'full-width digits'],
    ['٠٠٠٠٠٠٠١٩', 'Arabic-Indic digits'],
    [ATO_ABN, 'an eleven-digit ABN'],
  ])('rejects %j (%s)', (value) => {
    expect(isValidAcn(value)).toBe(false);
  });
});

describe('isValidAbn', () => {
  it.each([ATO_ABN, TELSTRA_ABN, EXAMPLE_ABN])('accepts the published ABN %s', (abn) => {
    expect(isValidAbn(abn)).toBe(true);
  });

  it.each([ATO_ABN, TELSTRA_ABN])(
    'rejects every one of the 99 single-digit changes of %s (89 is prime)',
    (abn) => {
      const mutations = singleDigitMutations(abn);
      expect(mutations).toHaveLength(99);
      for (const { mutated } of mutations) expect(isValidAbn(mutated), mutated).toBe(false);
    },
  );

  it('subtracts 1 from the first digit before weighting', () => {
    // 51 804 753 556 weighted without the subtraction sums to 534 = 6 x 89; with it, to 524: invalid.
    expect(isValidAbn('51804753556')).toBe(false);
    // 51 824 753 556 sums to 544 without the subtraction and to 534 = 6 x 89 with it: valid.
    expect(isValidAbn('51824753556')).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['5182475355', 'ten digits'],
    ['518247535560', 'twelve digits'],
    ['51 824 753 556', 'spaces (the caller must normalise)'],
    ['5182475355O', 'a letter O for a zero'],
    ['000000019', 'a nine-digit ACN'],
  ])('rejects %j (%s)', (value) => {
    expect(isValidAbn(value)).toBe(false);
  });
});

describe('acnFromAbn', () => {
  it('returns the last nine digits of an ABN that embeds a valid ACN', () => {
    expect(acnFromAbn(TELSTRA_ABN)).toBe(TELSTRA_ACN);
  });

  it('keeps leading zeros of the embedded ACN as a string', () => {
    expect(acnFromAbn(EXAMPLE_ABN)).toBe('004085616');
  });

  it('returns null for a valid ABN whose last nine digits fail the ACN test', () => {
    expect(isValidAcn(ATO_ABN.slice(2))).toBe(false);
    expect(acnFromAbn(ATO_ABN)).toBeNull();
  });

  it('returns null for an invalid ABN even when its last nine digits are a valid ACN', () => {
    const mutated = `34${TELSTRA_ACN}`;
    expect(isValidAbn(mutated)).toBe(false);
    expect(isValidAcn(mutated.slice(2))).toBe(true);
    expect(acnFromAbn(mutated)).toBeNull();
  });

  it.each(['', '000000019', '51 824 753 556', '3305177555'])('returns null for %j', (value) => {
    expect(acnFromAbn(value)).toBeNull();
  });
});

describe('formatting', () => {
  it('formats nine digits as nnn nnn nnn and eleven as nn nnn nnn nnn', () => {
    expect(formatNineDigit('000000019')).toBe('000 000 019');
    expect(formatAbn(ATO_ABN)).toBe('51 824 753 556');
  });
});

describe('checkIdentifier', () => {
  describe('nine digits', () => {
    it('is an ACN by default, keeping leading zeros as a string', () => {
      expect(checkIdentifier('000000019')).toStrictEqual({
        object: 'identifier',
        input: '000000019',
        type: 'acn',
        valid: true,
        normalized: '000000019',
        formatted: '000 000 019',
        acnFromAbn: null,
      });
    });

    it('ignores spaces anywhere and echoes the input as supplied', () => {
      expect(checkIdentifier(' 004 085616  ')).toStrictEqual({
        object: 'identifier',
        input: ' 004 085616  ',
        type: 'acn',
        valid: true,
        normalized: '004085616',
        formatted: '004 085 616',
        acnFromAbn: null,
      });
    });

    it('reports an invalid check digit as valid false with normalized and formatted still set', () => {
      expect(checkIdentifier('000 000 018')).toStrictEqual({
        object: 'identifier',
        input: '000 000 018',
        type: 'acn',
        valid: false,
        normalized: '000000018',
        formatted: '000 000 018',
        acnFromAbn: null,
      });
    });

    it.each([
      ['acn', 'acn'],
      ['arbn', 'arbn'],
      ['arsn', 'arsn'],
      ['abn', 'acn'],
      [undefined, 'acn'],
    ] as const)('with hint %s is type %s and uses the nine-digit check', (hint, type) => {
      expect(checkIdentifier('000000019', hint)).toStrictEqual({
        object: 'identifier',
        input: '000000019',
        type,
        valid: true,
        normalized: '000000019',
        formatted: '000 000 019',
        acnFromAbn: null,
      });
      expect(checkIdentifier('000000018', hint)).toMatchObject({ type, valid: false });
    });
  });

  describe('eleven digits', () => {
    it('is an ABN: the tax office ABN is valid and embeds no ACN', () => {
      expect(checkIdentifier('51 824 753 556')).toStrictEqual({
        object: 'identifier',
        input: '51 824 753 556',
        type: 'abn',
        valid: true,
        normalized: '51824753556',
        formatted: '51 824 753 556',
        acnFromAbn: null,
      });
    });

    it('gives acnFromAbn for an ABN embedding a valid ACN', () => {
      expect(checkIdentifier(TELSTRA_ABN)).toStrictEqual({
        object: 'identifier',
        input: TELSTRA_ABN,
        type: 'abn',
        valid: true,
        normalized: TELSTRA_ABN,
        formatted: '33 051 775 556',
        acnFromAbn: TELSTRA_ACN,
      });
      expect(checkIdentifier(EXAMPLE_ABN).acnFromAbn).toBe('004085616');
    });

    it('reports an invalid ABN as valid false, formatted, without acnFromAbn', () => {
      expect(checkIdentifier('34 051 775 556')).toStrictEqual({
        object: 'identifier',
        input: '34 051 775 556',
        type: 'abn',
        valid: false,
        normalized: '34051775556',
        formatted: '34 051 775 556',
        acnFromAbn: null,
      });
    });

    it.each(['acn', 'arbn', 'arsn', 'abn'] as const)(
      'ignores the contradicting or redundant hint %s',
      (hint) => {
        expect(checkIdentifier(TELSTRA_ABN, hint)).toStrictEqual(checkIdentifier(TELSTRA_ABN));
        expect(checkIdentifier(TELSTRA_ABN, hint).type).toBe('abn');
      },
    );
  });

  describe('anything else is unknown', () => {
    it.each([
      ['', 'empty'],
      [' ', 'a space only'],
      ['     ', 'spaces only'],
      ['1', 'one digit'],
      ['00000001', 'eight digits'],
      ['0000000190', 'ten digits'],
      ['518247535560', 'twelve digits'],
      ['0'.repeat(64), 'sixty-four digits'],
      ['000-000-019', 'hyphens'],
      ['000.000.019', 'dots'],
      ['000+000+019', 'plus signs'],
      ['000\t000\t019', 'tabs'],
      ['000\u00a0000\u00a0019', 'non-breaking spaces'],
      ['000\n000019', 'a newline'],
      ['ACN 000 000 019', 'a prefix'],
      ['0000000l9', 'a letter l for a one'],
      ['①', 'a circled digit'],
      ['٠٠٠٠٠٠٠١٩', 'nine Arabic-Indic digits'],
      ['۰۰۰۰۰۰۰۱۹', 'nine extended Arabic-Indic digits'],
      ['０００００００１９', 'nine full-width digits'],
      ['00000001９', 'one full-width digit'],
      ['-000000019', 'a sign'],
      ['1e9', 'exponent notation'],
    ])('%j (%s)', (input) => {
      expect(checkIdentifier(input)).toStrictEqual(unknownOf(input));
    });

    it.each(['acn', 'arbn', 'arsn', 'abn'] as const)('even with hint %s', (hint) => {
      expect(checkIdentifier('12345', hint)).toStrictEqual(unknownOf('12345'));
      expect(checkIdentifier('000-000-019', hint)).toStrictEqual(unknownOf('000-000-019'));
    });
  });

  it('never returns numbers: normalized keeps leading zeros for every published ACN', () => {
    for (const acn of registryExampleAcns) {
      const result = checkIdentifier(acn);
      expect(result.normalized).toBe(acn);
      expect(typeof result.normalized).toBe('string');
      expect(result.valid).toBe(true);
      expect(result.formatted).toBe(`${acn.slice(0, 3)} ${acn.slice(3, 6)} ${acn.slice(6)}`);
    }
  });
});
