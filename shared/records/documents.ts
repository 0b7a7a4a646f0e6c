/**
 * Document details: one document, or a batch of up to 10 answered in the order asked, all or
 * nothing. Every number is checked before the registry is asked: its form first (each number),
 * then repeats (the second occurrence is named). The batch is one registry call.
 */
import { isDocumentNumber, normalizeDocumentNumber } from '../domain/document-numbers.ts';
import { ApiError } from '../errors/api-error.ts';
import type { ErrorCode } from '../errors/catalogue.ts';
import {
  type RecordsRegistry,
  type RegistryCaller,
  type RegistryDocumentDetails,
  RegistryRejection,
} from '../ports/registry.ts';
import { apiErrorFromRegistry } from '../registry/errors.ts';

/** Names a number of the request in `param`: `number` for one, `numbers[i]` in a batch. */
export type NumberParam = (index: number) => string;

/** The registry's rejections about one number of the lookup, and what the client sees. */
const DOCUMENT_REJECTIONS: Readonly<Record<string, ErrorCode>> = {
  DD01: 'document_number_invalid',
  DD02: 'duplicate_document_number',
  DD51: 'document_not_found',
  DD52: 'document_not_imaged',
};

/** The numbers as they will be sent, or the first problem: a malformed number, then a repeat. */
export function checkDocumentNumbers(raw: readonly string[], paramOf: NumberParam): string[] {
  const numbers = raw.map(normalizeDocumentNumber);
  numbers.forEach((number, index) => {
    if (!isDocumentNumber(number)) {
      throw new ApiError('document_number_invalid', {
        param: paramOf(index),
        message: `'${raw[index]}' is not a document number: nine characters, digits and capital letters, starting with a digit.`,
      });
    }
  });
  const seen = new Map<string, number>();
  numbers.forEach((number, index) => {
    const first = seen.get(number);
    if (first !== undefined) {
      throw new ApiError('duplicate_document_number', {
        param: paramOf(index),
        message: `Document ${number} is asked for twice (${paramOf(first)} and ${paramOf(index)}); ask for each once.`,
        details: { documentNumber: number },
      });
    }
    seen.set(number, index);
  });
  return numbers;
}

/** A rejection about one number, named by its place in the request (the second one for a repeat). */
function documentError(error: unknown, numbers: readonly string[], paramOf: NumberParam): unknown {
  if (!(error instanceof RegistryRejection)) return apiErrorFromRegistry(error);
  const code = DOCUMENT_REJECTIONS[error.registryCode];
  const number = error.details?.documentNumber;
  const index =
    error.registryCode === 'DD02' ? numbers.lastIndexOf(number as string) : numbers.indexOf(number as string);
  if (!code || typeof number !== 'string' || index < 0) return apiErrorFromRegistry(error);
  return new ApiError(code, {
    param: paramOf(index),
    registryCode: error.registryCode,
    message:
      code === 'document_not_found' ? `No document has the number ${number}.` : error.message || undefined,
    details: { documentNumber: number },
  });
}

/** The documents with these numbers, in the order given: one registry call. */
export async function lookUpDocuments(
  registry: Pick<RecordsRegistry, 'getDocumentDetails'>,
  raw: readonly string[],
  caller: RegistryCaller,
  paramOf: NumberParam,
): Promise<RegistryDocumentDetails[]> {
  const numbers = checkDocumentNumbers(raw, paramOf);
  try {
    return await registry.getDocumentDetails(numbers, caller);
  } catch (error) {
    throw documentError(error, numbers, paramOf);
  }
}
