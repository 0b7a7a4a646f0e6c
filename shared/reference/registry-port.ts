/**
 * The reference capability's part of the registry port: the registry's own form schedule and code
 * tables, which it changes without notice (spec document 3, section 9). Both are free. The daily
 * refresh (refresh.ts) reads them and stores a checked copy; the API's reference routes serve that
 * copy and never call the registry themselves (spec document 2, sections 4.6 and 4.7).
 */
import { methodsOf, type RegistryCaller } from '../kernel/registry-port.ts';

/** A form as the registry lists it: `categories` are the registry's category slugs (`all` aside). */
export interface RegistryForm {
  formCode: string;
  description: string;
  categories: string[];
}

export interface RegistryCodeTableEntry {
  code: string;
  label: string;
  /** Only in the registry-coded tables (number-types and two more); null elsewhere. */
  registryCode: string | null;
}

export interface RegistryCodeTable {
  /** The table's slug (spec document 1, 2.9). */
  table: string;
  title: string;
  /** In the registry's order. */
  entries: RegistryCodeTableEntry[];
}

/** The reference capability (RF). */
export interface ReferenceRegistry {
  /** Free. Every form of the registry's schedule, in its order. */
  getFormSchedule(caller: RegistryCaller): Promise<{ forms: RegistryForm[] }>;
  /** Free. Every code table, in its order, each with its entries in the registry's order. */
  getCodeTables(caller: RegistryCaller): Promise<{ tables: RegistryCodeTable[] }>;
}

export const referenceRegistryMethods = methodsOf<ReferenceRegistry>()(['getFormSchedule', 'getCodeTables']);

/** This capability's part of the registry port (shared/app/registry.ts). */
declare module '../kernel/registry-port.ts' {
  interface RegistryParts {
    reference: ReferenceRegistry;
  }
}
