import { presentCompanyExtract } from '../companies/extracts.ts';
import type { HeldExtracts, StoredExtract } from '../extracts/store-port.ts';
import { PERSON_SECTION, presentPersonExtract, type StoredPersonExtract } from '../people/present.ts';
import { presentRegisterExtract } from '../registers/present.ts';

/** The extract object of any kind, as GET /v1/extracts/{id} shows it. */
export function presentStoredExtract({ header, sections }: StoredExtract) {
  if (header.kind === 'person') return presentPersonExtract(sections[PERSON_SECTION] as StoredPersonExtract);
  if (header.kind === 'register') return presentRegisterExtract(header.summary, sections);
  const { summary: _summary, ...rest } = sections;
  return presentCompanyExtract(header.summary, rest);
}

/** An extract a purchase already stored, as its replay shows it again. */
export async function presentPurchasedExtract(store: HeldExtracts, id: string) {
  const stored = await store.getExtract(id);
  if (!stored) throw new Error(`extract ${id} of an earlier purchase is missing`);
  return presentStoredExtract(stored);
}
