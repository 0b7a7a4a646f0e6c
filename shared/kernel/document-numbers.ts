import * as z from 'zod/mini';
import { codedPattern, named } from './http/schemas.ts';
import { shakable } from './shakable.ts';

/**
 * The document number rule, shared by document lookups and image orders: nine characters, digits
 * and capital letters, the first a digit (spec document 1, 2.3). Input is trimmed and upper-cased
 * first, so `9e0010007 ` is the document 9E0010007.
 */
export const DOCUMENT_NUMBER = /^\d[0-9A-Z]{8}$/;

/** The form a document number is compared and sent in. */
export const normalizeDocumentNumber = (raw: string): string => raw.trim().toUpperCase();

export const isDocumentNumber = (value: unknown): value is string =>
  typeof value === 'string' && DOCUMENT_NUMBER.test(value);

/** A document number as a request may spell it: any case, spaces around it. */
const DOCUMENT_NUMBER_INPUT = /^\s*\d[0-9A-Za-z]{8}\s*$/;

/** A document number in a request: its form checked and said in the contract (400 `document_number_invalid`). */
export const documentNumberSchema = /* @__PURE__ */ shakable(() =>
  named(
    'DocumentNumber',
    codedPattern(
      z.string({ error: 'must be a string' }),
      DOCUMENT_NUMBER_INPUT,
      'document_number_invalid',
      'is not a document number: nine characters, digits and letters, starting with a digit',
    ),
    'A document number: nine characters, digits and letters, the first a digit (case and surrounding spaces are ignored).',
  ),
);
