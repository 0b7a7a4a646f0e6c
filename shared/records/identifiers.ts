/**
 * The numbers of business names and name reservations: the registry's own numbers (number type
 * NUMBER), up to 20 digits and capital letters with no check digit. Spaces are ignored and
 * letters upper-cased, so `990 003 113` is `990003113`.
 */

import { ApiError } from '../kernel/errors/api-error.ts';
import { RegistryRejection } from '../kernel/registry-port.ts';

const RECORD_NUMBER = /^[0-9A-Z]{1,20}$/;

/** The same number as a request may spell it: any case, spaces anywhere. */
export const RECORD_NUMBER_INPUT = /^\s*(?:[0-9A-Za-z]\s*){1,20}$/;

export function recordNumber(raw: string, param: string): string {
  const number = raw.replace(/\s+/g, '').toUpperCase();
  if (!RECORD_NUMBER.test(number)) {
    throw new ApiError('validation_error', {
      param,
      message: `${param} must be a registry number: 1 to 20 digits and letters (spaces are ignored).`,
    });
  }
  return number;
}

/** Whether a registry call failed with one of these rejection codes. */
export const rejectedWith = (error: unknown, ...codes: string[]): error is RegistryRejection =>
  error instanceof RegistryRejection && codes.includes(error.registryCode);
