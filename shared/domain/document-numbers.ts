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
