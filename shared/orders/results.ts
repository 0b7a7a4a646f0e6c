/** An offline search's full result set, kept as one JSON file (companyMatch objects, registry order). */
import { csvCell } from '../kernel/csv.ts';
import type { BlobStore } from './store-port.ts';

export const offlineResultsKey = (searchId: string) => `offline-searches/${searchId}.json`;

export async function readOfflineResults(blobs: BlobStore, key: string): Promise<Record<string, unknown>[]> {
  const bytes = await blobs.get(key);
  if (!bytes) throw new Error(`offline search results ${key} are missing`);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>[];
}

export const encodeOfflineResults = (matches: readonly Record<string, unknown>[]) =>
  new Uint8Array(Buffer.from(JSON.stringify(matches)));

/** The CSV an emailed offline search carries: one row per match, each cell formula-safe (shared/kernel/csv.ts). */
export function offlineResultsCsv(matches: readonly Record<string, unknown>[]): string {
  const columns = ['acn', 'formatted', 'name', 'matchedName', 'nameStatus', 'score', 'type', 'status', 'abn'];
  const cell = (value: unknown) =>
    csvCell(typeof value === 'object' && value !== null && 'code' in value ? value.code : value);
  return [columns.join(','), ...matches.map((match) => columns.map((c) => cell(match[c])).join(','))].join(
    '\n',
  );
}
