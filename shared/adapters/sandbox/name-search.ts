/**
 * Organisation name matching, shared by the online search (companies) and the offline search
 * (orders): scores, one best name per organisation, the registry's order.
 */

import { compareText } from '../../kernel/registry-ordering.ts';
import {
  type CompanySearchScope,
  companySearchScopes,
  type RegistryCompanyMatch,
  RegistryRejection,
} from '../../kernel/registry-port.ts';
import { type CompanyRecord, type Dataset, type NameEntry, nameWords, normalizeName } from './dataset.ts';

/**
 * How well a name matches a query, 0 to 100, or null when it does not match. Both are
 * normalised (`normalizeName`). A name matches when every distinct query word matches a different
 * word of the name, in full or as its beginning ("WIDG" matches "WIDGETS").
 *
 *   exact name (normalised name = normalised query)   100
 *   the name starts with the query text               70 + bonus   (70–99)
 *   the query text appears from the start of a word   40 + bonus   (40–69)
 *   the words appear apart or in another order        10 + bonus   (10–39)
 *
 * bonus = floor(29 × covered ÷ words in the name), where each query word counts 1 when it equals
 * its name word and ½ when it only begins it; so a name with fewer other words scores higher. The
 * bands do not overlap: starts-with always beats contains, which always beats scattered words.
 */
export function scoreName(queryNormalized: string, nameNormalized: string): number | null {
  const queryWords = [...new Set(nameWords(queryNormalized))];
  const words = nameWords(nameNormalized);
  if (queryWords.length === 0 || words.length === 0) return null;
  if (queryNormalized === nameNormalized) return 100;

  // Longest query words first, each taking an unused equal word before an unused prefixed one,
  // so that a short query word cannot take the word a longer one needs.
  const used = new Array<boolean>(words.length).fill(false);
  let covered = 0;
  for (const queryWord of [...queryWords].sort((a, b) => b.length - a.length)) {
    let index = words.findIndex((word, i) => !used[i] && word === queryWord);
    let weight = 1;
    if (index === -1) {
      index = words.findIndex((word, i) => !used[i] && word.startsWith(queryWord));
      weight = 0.5;
    }
    if (index === -1) return null;
    used[index] = true;
    covered += weight;
  }
  const bonus = Math.floor((29 * Math.min(covered, words.length)) / words.length);
  if (nameNormalized.startsWith(queryNormalized)) return 70 + bonus;
  if (` ${nameNormalized}`.includes(` ${queryNormalized}`)) return 40 + bonus;
  return 10 + bonus;
}

export interface ScoredName {
  entry: NameEntry;
  score: number;
}

/** By score, then name, then number. */
export const orderedMatches = (scored: readonly ScoredName[]): RegistryCompanyMatch[] =>
  [...scored]
    .sort(
      (a, b) =>
        b.score - a.score ||
        compareText(a.entry.name, b.entry.name) ||
        compareText(a.entry.record.company.number, b.entry.record.company.number),
    )
    .map(({ entry, score }) => ({
      company: entry.record.company,
      matchedName: entry.name,
      nameStatus: entry.status,
      score,
      address: entry.record.searchAddress,
    }));

/** One best-scoring name per matching organisation, unordered; ON02 for an unknown scope. */
export function scoredNames(
  dataset: Dataset,
  query: { name: string; scope: CompanySearchScope },
): ScoredName[] {
  const scope: unknown = query?.scope;
  if (!companySearchScopes.includes(scope as CompanySearchScope)) {
    throw new RegistryRejection('ON02', 'The search scope must be current or all.');
  }
  const queryNormalized = typeof query.name === 'string' ? normalizeName(query.name) : '';
  const best = new Map<CompanyRecord, ScoredName>();
  if (queryNormalized !== '') {
    for (const entry of dataset.names) {
      if (entry.status === 'former' && scope !== 'all') continue;
      const score = scoreName(queryNormalized, entry.normalized);
      if (score === null) continue;
      // One match per organisation: its best name, the current name on a tie (it comes first).
      const held = best.get(entry.record);
      if (!held || score > held.score) best.set(entry.record, { entry, score });
    }
  }
  return [...best.values()];
}
