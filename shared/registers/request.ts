/** What every register route checks before anything is asked of the registry. */
import './errors.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { apiErrorFromRegistry } from '../kernel/registry-errors.ts';
import { isRegisterCode, type RegisterCode, registerCodes } from './registry-port.ts';

/** The register code of the path, as given: codes are case-sensitive (`ra` is not `RA`). */
export function checkRegister(register: string): RegisterCode {
  if (isRegisterCode(register)) return register;
  throw new ApiError('register_invalid', {
    param: 'register',
    message: `${JSON.stringify(register)} is not a register this service serves. Use one of ${registerCodes.join(', ')} (case-sensitive).`,
  });
}

/** An entry number: one to nine digits, spaces ignored, leading zeros kept. */
export function checkEntryNumber(number: string): string {
  const compact = number.replace(/ /g, '');
  if (/^\d{1,9}$/.test(compact)) return compact;
  throw new ApiError('validation_error', {
    param: 'number',
    message: 'number must be one to nine digits (spaces are ignored, leading zeros kept).',
  });
}

/** The parameter each kind of register rejection is about: 01 the register, 02 and 51 the operation's own. */
export type RejectionParams = { '01': string; '02'?: string; '51': string };

/**
 * A registry failure as the client error of a register route, on the parameter its code is about
 * (a rejection, or the error `buyOnce` already made of one).
 */
export function registerError(error: unknown, params: RejectionParams): unknown {
  const mapped = apiErrorFromRegistry(error);
  if (!(mapped instanceof ApiError) || !mapped.registryCode || mapped.registryCode.startsWith('ZZ')) {
    return mapped;
  }
  const kind = mapped.registryCode.slice(2) as keyof RejectionParams;
  return new ApiError(mapped.code, {
    param: mapped.code === 'registry_application_error' ? null : (params[kind] ?? null),
    registryCode: mapped.registryCode,
    message: mapped.message,
    // The spec gives every no_matches its counts; a registry answer without them found nothing.
    details:
      mapped.code === 'no_matches' && !mapped.details
        ? { counts: { returned: 0, found: 0 } }
        : mapped.details,
  });
}

/** Awaits a free register call, turning its failures into client errors. */
export async function fromRegisters<T>(call: Promise<T>, params: RejectionParams): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw registerError(error, params);
  }
}
