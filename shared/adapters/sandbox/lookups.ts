/**
 * What the dataset registry's parts share: the context they are built with (the dataset and the
 * registry's clock), the most names a search selects, and finding an organisation by number.
 */

import { isDocumentNumber } from '../../kernel/document-numbers.ts';
import { isValidAcn } from '../../kernel/identifiers.ts';
import { RegistryRejection } from '../../kernel/registry-port.ts';
import type { CompanyRecord, Dataset } from './dataset.ts';

/** What each part of the dataset registry is built on. */
export interface DatasetContext {
  dataset: Dataset;
  now: () => Date;
}

/**
 * A part of the dataset registry: the dataset it answers from and the registry's clock. The
 * dataset is read from the context at each use, so a context whose dataset follows the clock
 * (the sandbox's published schedule, schedule.ts) is answered by every part alike.
 */
export abstract class DatasetPart {
  private readonly context: DatasetContext;
  protected readonly now: () => Date;

  constructor(context: DatasetContext) {
    this.context = context;
    this.now = context.now;
  }

  protected get dataset(): Dataset {
    return this.context.dataset;
  }
}

/** Most names a search may select; more is ON52 (PN52 for people). */
export const MAX_SEARCH_MATCHES = 100;

const isNineDigitNumber = (value: unknown): value is string => typeof value === 'string' && isValidAcn(value);

/** The organisation with this number: `invalidCode` for a number that fails the check digit, `unknownCode` for one no organisation has. */
export function companyRecordIn(
  dataset: Dataset,
  number: string,
  invalidCode: string,
  unknownCode: string,
): CompanyRecord {
  if (!isNineDigitNumber(number)) {
    throw new RegistryRejection(invalidCode, 'The number must be nine digits and pass the check digit test.');
  }
  const record = dataset.byNumber.get(number);
  if (!record) throw new RegistryRejection(unknownCode, `No organisation has the number ${number}.`);
  return record;
}

/** DD01 for the first malformed number of a document lookup: every number is checked before any is looked up. */
export function rejectMalformedDocumentNumbers(numbers: readonly string[]): void {
  const invalid = numbers.find((number) => !isDocumentNumber(number));
  if (invalid !== undefined) {
    throw new RegistryRejection(
      'DD01',
      `Document number ${String(invalid)} is not nine characters starting with a digit.`,
      { documentNumber: invalid },
    );
  }
}
