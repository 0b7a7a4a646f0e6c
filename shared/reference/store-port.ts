/**
 * Where the refreshed reference data is kept: one copy of the form schedule and one of the code
 * tables for the whole service (test and live keys read the same copy: spec document 3, 9.6),
 * each with the time of the refresh that stored it.
 */
import type { CodeTableDefinition } from './code-tables.ts';
import type { FormDefinition } from './forms.ts';

export interface ReferenceData {
  forms: readonly FormDefinition[];
  'code-tables': readonly CodeTableDefinition[];
}

export type ReferenceKind = keyof ReferenceData;

export const referenceKinds: readonly ReferenceKind[] = ['forms', 'code-tables'];

export interface StoredReference<K extends ReferenceKind> {
  data: ReferenceData[K];
  /** When the refresh that stored this copy read it from the registry (RFC 3339). */
  refreshedAt: string;
}

export interface ReferenceStore {
  /** The stored copy; undefined when no refresh has stored one yet. */
  get<K extends ReferenceKind>(kind: K): Promise<StoredReference<K> | undefined>;
  /**
   * Stores a copy unless one from a later refresh is stored already (two refreshes racing keep
   * the newer); returns whether it was stored.
   */
  put<K extends ReferenceKind>(kind: K, copy: StoredReference<K>): Promise<boolean>;
}
