/**
 * The reference capability over a dataset registry: the form schedule and the code tables it
 * answers with. The sandbox answers with the bundled copy (shared/reference/data/), so test keys
 * and the refresh agree with production's tables until the registry changes them; the simulator is
 * given a source of its own (local/simulator-reference.ts) that differs from the bundled copy.
 */

import type { RegistryCaller } from '../../kernel/registry-port.ts';
import { codeTables } from '../code-tables.ts';
import { forms } from '../forms.ts';
import type { ReferenceRegistry, RegistryCodeTable, RegistryForm } from '../registry-port.ts';

/** Where a dataset registry's reference data comes from. */
export interface ReferenceSource {
  forms(): RegistryForm[];
  codeTables(): RegistryCodeTable[];
}

/** The bundled form schedule and code tables, as the registry would send them. */
export const bundledReference: ReferenceSource = {
  forms: () =>
    forms.map(({ formCode, description, categories }) => ({
      formCode,
      description,
      categories: [...categories],
    })),
  codeTables: () =>
    codeTables.map(({ table, title, entries }) => ({
      table,
      title,
      entries: entries.map(({ code, label, registryCode }) => ({ code, label, registryCode })),
    })),
};

export class DatasetReference implements ReferenceRegistry {
  constructor(private readonly source: ReferenceSource = bundledReference) {}

  async getFormSchedule(_caller: RegistryCaller): Promise<{ forms: RegistryForm[] }> {
    return { forms: this.source.forms() };
  }

  async getCodeTables(_caller: RegistryCaller): Promise<{ tables: RegistryCodeTable[] }> {
    return { tables: this.source.codeTables() };
  }
}
