/**
 * Australian company identifiers: ACN, ARBN and ARSN share the nine-digit check-digit rule;
 * the ABN is eleven digits checked modulo 89. Numbers are strings: leading zeros matter.
 */

export const identifierHints = ['acn', 'arbn', 'arsn', 'abn'] as const;
export type IdentifierHint = (typeof identifierHints)[number];
export const identifierTypes = ['acn', 'abn', 'arbn', 'arsn', 'unknown'] as const;
export type IdentifierType = (typeof identifierTypes)[number];

export interface IdentifierCheck {
  object: 'identifier';
  input: string;
  type: IdentifierType;
  valid: boolean;
  normalized: string | null;
  formatted: string | null;
  acnFromAbn: string | null;
}

/**
 * The forms an identifier is written in, spaces anywhere (`123 456 789`): nine digits (ACN, ARBN,
 * ARSN), eleven (ABN), or either (a company named by its number or by an ABN). The check digits
 * are not in them: `isValidAcn` and `isValidAbn` test those.
 */
export const NINE_DIGIT_FORM = /^ *(?:\d *){9}$/;
export const ELEVEN_DIGIT_FORM = /^ *(?:\d *){11}$/;
export const COMPANY_NUMBER_FORM = /^ *(?:\d *){9}(?:\d *\d *)?$/;

const ACN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 1] as const;
const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

const digitsOf = (value: string): number[] => Array.from(value, Number);

/** True when a nine-digit string passes the ACN/ARBN/ARSN check digit. */
export function isValidAcn(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const digits = digitsOf(value);
  const sum = ACN_WEIGHTS.reduce((total, weight, i) => total + weight * (digits[i] ?? 0), 0);
  const check = (10 - (sum % 10)) % 10;
  return check === digits[8];
}

/** True when an eleven-digit string passes the ABN modulus-89 test. */
export function isValidAbn(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const digits = digitsOf(value);
  digits[0] = (digits[0] ?? 0) - 1;
  const sum = ABN_WEIGHTS.reduce((total, weight, i) => total + weight * (digits[i] ?? 0), 0);
  return sum % 89 === 0;
}

/** The ACN inside a valid ABN (its last nine digits), or null when the ABN embeds none. */
export function acnFromAbn(abn: string): string | null {
  if (!isValidAbn(abn)) return null;
  const acn = abn.slice(2);
  return isValidAcn(acn) ? acn : null;
}

export const formatNineDigit = (value: string): string =>
  `${value.slice(0, 3)} ${value.slice(3, 6)} ${value.slice(6, 9)}`;
export const formatAbn = (value: string): string =>
  `${value.slice(0, 2)} ${value.slice(2, 5)} ${value.slice(5, 8)} ${value.slice(8, 11)}`;

const NINE_DIGIT_HINTS: ReadonlySet<IdentifierHint> = new Set(['acn', 'arbn', 'arsn']);

/**
 * Classifies and checks an identifier. Spaces are ignored; any other non-digit makes the input
 * `unknown`. The digit count decides between the nine-digit family and the ABN; a hint only
 * chooses which nine-digit type to report, and a hint that contradicts the digit count is ignored.
 */
export function checkIdentifier(input: string, hint?: IdentifierHint): IdentifierCheck {
  const compact = input.replace(/ /g, '');
  const unknown: IdentifierCheck = {
    object: 'identifier',
    input,
    type: 'unknown',
    valid: false,
    normalized: null,
    formatted: null,
    acnFromAbn: null,
  };
  if (!/^\d+$/.test(compact)) return unknown;
  if (compact.length === 9) {
    const type = hint && NINE_DIGIT_HINTS.has(hint) ? (hint as 'acn' | 'arbn' | 'arsn') : 'acn';
    return {
      ...unknown,
      type,
      valid: isValidAcn(compact),
      normalized: compact,
      formatted: formatNineDigit(compact),
    };
  }
  if (compact.length === 11) {
    return {
      ...unknown,
      type: 'abn',
      valid: isValidAbn(compact),
      normalized: compact,
      formatted: formatAbn(compact),
      acnFromAbn: acnFromAbn(compact),
    };
  }
  return unknown;
}
