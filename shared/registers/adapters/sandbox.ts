/**
 * The registers capability over the sandbox's register records: the registry's rules (document 3,
 * 7.5 and 7.7) as the registry applies them. A browse (RP, RR or RB by the register's family) checks
 * the register (01) before the key (02), answers the entries whose name begins with the key (case
 * and apostrophes ignored, as the people search) in the register's alphabetical order, a page at a
 * time with a continuation, and 51 with counts when nothing matches. RQ finds one entry by any of
 * its numbers; RS sells its extract, current (records of status C and F) or historical.
 */

import { normalizePersonName } from '../../adapters/sandbox/dataset.ts';
import { compareText } from '../../kernel/registry-ordering.ts';
import { type RegistryCaller, RegistryRejection } from '../../kernel/registry-port.ts';
import {
  browseCodeFamily,
  isRegisterCode,
  type RegisterCode,
  type RegisterExtractType,
  type RegisterRegistry,
  type RegistryRegisterEntry,
  type RegistryRegisterExtract,
  type RegistryRegisterPage,
  registerExtractTypes,
  servedRegisters,
} from '../registry-port.ts';
import type { RegisterRecord } from './sandbox-data.ts';

/** Most entries one browse page may ask for. */
export const MAX_BROWSE_PAGE = 100;

/** The name a register is sorted and browsed by: family name first for a person. */
export function registerNameKey(holder: RegistryRegisterEntry['holder']): string {
  const name = holder.person
    ? [holder.person.familyName, ...holder.person.givenNames].join(' ')
    : (holder.organisation?.name ?? '');
  return normalizePersonName(name);
}

interface Indexed {
  key: string;
  record: RegisterRecord;
}

interface Continuation {
  register: string;
  key: string;
  offset: number;
}

const encodeContinuation = (value: Continuation) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decodeContinuation(token: string, register: string, key: string, code: string): number {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Continuation;
    if (
      value.register === register &&
      value.key === key &&
      Number.isInteger(value.offset) &&
      value.offset >= 0
    ) {
      return value.offset;
    }
  } catch {}
  throw new RegistryRejection(`${code}01`, 'The continuation does not belong to this register and key.');
}

const noMatch = (code: string, message: string) =>
  new RegistryRejection(code, message, { counts: { returned: 0, found: 0 } });

const isCurrentRecord = (record: { status: string }) => record.status === 'C' || record.status === 'F';

export class DatasetRegisters implements RegisterRegistry {
  private indexes: Map<string, Indexed[]> | undefined;

  constructor(
    private readonly records: () => readonly RegisterRecord[],
    private readonly now: () => Date,
  ) {}

  async browseRegister(
    query: { register: string; key: string; limit: number; continuation: string | null },
    _caller: RegistryCaller,
  ): Promise<RegistryRegisterPage> {
    const { register } = query;
    if (!isRegisterCode(register)) throw new RegistryRejection('RP01', `${register} is not a register.`);
    const code = browseCodeFamily[servedRegisters[register].family];
    const key = normalizePersonName(typeof query.key === 'string' ? query.key : '');
    if (key.length < 2)
      throw new RegistryRejection(`${code}02`, 'The browse key must hold two characters or more.');
    const limit = Math.min(Math.max(Math.trunc(Number(query.limit)) || 1, 1), MAX_BROWSE_PAGE);
    const offset = query.continuation ? decodeContinuation(query.continuation, register, key, code) : 0;
    const matches = this.indexOf(register).filter((indexed) => indexed.key.startsWith(key));
    if (matches.length === 0)
      throw noMatch(`${code}51`, `No entry of ${register} has a name beginning ${key}.`);
    const end = offset + limit;
    return {
      entries: matches.slice(offset, end).map(({ record }) => structuredClone(record.entry)),
      continuation: end < matches.length ? encodeContinuation({ register, key, offset: end }) : null,
    };
  }

  async getRegisterEntry(
    register: string,
    number: string,
    _caller: RegistryCaller,
  ): Promise<RegistryRegisterEntry> {
    return structuredClone(this.recordOf(register, number, 'RQ').entry);
  }

  async purchaseRegisterExtract(
    query: { register: string; number: string; type: RegisterExtractType },
    _caller: RegistryCaller,
    _clientKey: string,
  ): Promise<RegistryRegisterExtract> {
    if (!isRegisterCode(query.register))
      throw new RegistryRejection('RS01', `${query.register} is not a register.`);
    if (!(registerExtractTypes as readonly unknown[]).includes(query.type)) {
      throw new RegistryRejection('RS02', 'The extract type must be current or historical.');
    }
    const record = this.recordOf(query.register, query.number, 'RS');
    return structuredClone(extractOf(record, query.type, this.now()));
  }

  private recordOf(register: string, number: string, code: 'RQ' | 'RS'): RegisterRecord {
    if (!isRegisterCode(register)) throw new RegistryRejection(`${code}01`, `${register} is not a register.`);
    const found = this.indexOf(register).find(
      ({ record }) => record.entry.number === number || record.otherNumbers.includes(number),
    );
    if (!found) throw noMatch(`${code}51`, `${register} has no entry numbered ${number}.`);
    return found.record;
  }

  private indexOf(register: RegisterCode): Indexed[] {
    if (!this.indexes) {
      this.indexes = new Map();
      for (const record of this.records()) {
        const list = this.indexes.get(record.entry.register) ?? [];
        list.push({ key: registerNameKey(record.entry.holder), record });
        this.indexes.set(record.entry.register, list);
      }
      for (const list of this.indexes.values()) {
        list.sort(
          (a, b) => compareText(a.key, b.key) || compareText(a.record.entry.number, b.record.entry.number),
        );
      }
    }
    return this.indexes.get(register) ?? [];
  }
}

/** The spec's address order (PS, PA, OP for professional registers; PA, RB for representatives), current first. */
const ADDRESS_ORDER = ['PS', 'PA', 'OP', 'RB'];

function extractOf(record: RegisterRecord, type: RegisterExtractType, now: Date): RegistryRegisterExtract {
  const { family } = servedRegisters[record.entry.register];
  const keep = <T extends { status: string }>(records: readonly T[]) =>
    type === 'historical' ? [...records] : records.filter(isCurrentRecord);
  const addresses = keep(record.addresses).sort(
    (a, b) =>
      ADDRESS_ORDER.indexOf(a.type) - ADDRESS_ORDER.indexOf(b.type) ||
      Number(!isCurrentRecord(a)) - Number(!isCurrentRecord(b)) ||
      compareText(b.from, a.from),
  );
  const professional = family === 'professional';
  return {
    type,
    asOf: now.toISOString(),
    entry: { ...record.entry, holder: { ...record.entry.holder, birth: record.birth } },
    addresses,
    trading: professional ? [...record.trading] : null,
    officers: professional ? keep(record.officers) : null,
    authorities: family === 'authorised-representatives' ? keep(record.authorities) : null,
    suspensions: family === 'banned-disqualified' ? null : keep(record.suspensions),
    legislation: record.legislation,
    documents: [...record.documents],
  };
}
