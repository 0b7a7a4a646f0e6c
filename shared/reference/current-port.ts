/**
 * The reference data the routes serve, as ports: the form schedule and the code tables in force
 * (the stored copy, else the bundled one), each with the time of the refresh that read it.
 */
import type { CodeTableDefinition } from './code-tables.ts';
import type { FormCategory, FormDefinition } from './forms.ts';

export interface CurrentReference<T> {
  data: T;
  /** When the registry's copy was read by the refresh; null for the bundled copy. */
  refreshedAt: Date | null;
}

export interface CodeTableSet {
  all: readonly CodeTableDefinition[];
  find(slug: string): CodeTableDefinition | undefined;
}

export interface FormSchedule {
  inCategory(category: FormCategory): readonly FormDefinition[];
}

export type CurrentCodeTables = () => Promise<CurrentReference<CodeTableSet>>;

export type CurrentFormSchedule = () => Promise<CurrentReference<FormSchedule>>;

declare module '../kernel/capability-ports.ts' {
  interface CapabilityOwnPorts {
    /** The form schedule and the code tables the reference routes serve (the stored copy, else the bundled one). */
    formSchedule: CurrentFormSchedule;
    codeTableSet: CurrentCodeTables;
  }
}
