import { ApiError } from '../kernel/errors/api-error.ts';
import { acnFromAbn, isValidAbn, isValidAcn } from '../kernel/identifiers.ts';

/** A company as named in a path: its nine-digit number, and the ABN when it was named by ABN. */
export interface CompanyIdentifier {
  number: string;
  abn: string | null;
}

/**
 * Reads `{id}` of a company path: a nine-digit ACN (or ARBN, ARSN), or an eleven-digit ABN that
 * embeds one. Spaces are ignored, so the display forms work too. Nothing is looked up here.
 * `only` reads a parameter that takes one kind (search's `acn` or `abn`): anything not of that
 * shape is that kind's invalid code.
 */
export function parseCompanyIdentifier(raw: string, param = 'id', only?: 'acn' | 'abn'): CompanyIdentifier {
  const value = raw.replace(/ /g, '');
  if (only === 'acn' && !/^\d{9}$/.test(value)) {
    throw new ApiError('acn_invalid', {
      param,
      message: `${param} must be nine digits; use abn for an ABN.`,
    });
  }
  if (only === 'abn' && !/^\d{11}$/.test(value)) {
    throw new ApiError('abn_invalid', {
      param,
      message: `${param} must be eleven digits; use acn for an ACN.`,
    });
  }
  if (/^\d{11}$/.test(value)) {
    if (!isValidAbn(value)) {
      throw new ApiError('abn_invalid', {
        param,
        message: `${raw} is not a valid ABN: its check digits fail.`,
      });
    }
    const number = acnFromAbn(value);
    if (!number) {
      throw new ApiError('abn_not_acn_based', {
        param,
        message: `ABN ${raw} is valid but does not embed an ACN (sole trader, partnership or trust ABNs do not).`,
      });
    }
    return { number, abn: value };
  }
  if (!/^\d{9}$/.test(value)) {
    throw new ApiError('acn_invalid', {
      param,
      message: `'${raw}' is not a company number: use nine digits (ACN, ARBN or ARSN) or an ABN that embeds an ACN.`,
    });
  }
  if (!isValidAcn(value)) {
    throw new ApiError('acn_invalid', { param, message: `${raw} fails the ACN check digit test.` });
  }
  return { number: value, abn: null };
}
