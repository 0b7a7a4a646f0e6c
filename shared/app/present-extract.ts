/**
 * How every kind of held extract is shown by `GET /v1/extracts/{id}`: the `present` part of
 * every kind (extract-kind-parts.ts), apart from the store and reconcile parts so that a read's
 * bundle carries no purchase.
 */
import { presentStoredCompanyExtract } from '../companies/extracts.ts';
import type { StoredExtract } from '../extracts/store-port.ts';
import { presentStoredPersonExtract } from '../people/present.ts';
import { presentStoredRegisterExtract } from '../registers/present.ts';
import { presentFirstItemsPage } from '../weekly-summaries/present.ts';
import type { ExtractKindRole, HeldExtractRead } from './extract-kind-parts.ts';

export const presentByKind = {
  company: { present: async (stored) => presentStoredCompanyExtract(stored) },
  person: { present: async (stored) => presentStoredPersonExtract(stored) },
  register: { present: async (stored) => presentStoredRegisterExtract(stored) },
  // The extract with its first page of items, never the whole list.
  weeklySummary: { present: ({ header }, read) => presentFirstItemsPage(read, header) },
} satisfies ExtractKindRole<'present'>;

/** A held extract of any kind, as `GET /v1/extracts/{id}` shows it. */
export const presentHeldExtract = (stored: StoredExtract, read: HeldExtractRead) =>
  presentByKind[stored.header.kind].present(stored, read);
