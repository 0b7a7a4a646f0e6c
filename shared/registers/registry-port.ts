/**
 * The registers capability of the registry port (RP, RR, RB, RQ, RS): the professional registers
 * (auditors, liquidators, old securities and futures licences), the authorised representatives and
 * the banned and disqualified persons (spec document 1, 1 and 2.9; document 3, 7.5 and 7.7).
 *
 * RP/RR/RB browse a register of their family by a name key, RQ looks one entry up by its number and
 * RS sells its extract (docs/registry-protocol.md, "Registers"). Values are the registry's raw codes;
 * the presenters turn them into `{code, label}`.
 */
import {
  type IsoDate,
  type IsoTimestamp,
  methodsOf,
  type RegistryAddressRecord,
  type RegistryCaller,
  type RegistryDocument,
  type RegistryPartialAddress,
  type RegistryParty,
} from '../kernel/registry-port.ts';

export const registerFamilies = [
  'professional',
  'authorised-representatives',
  'banned-disqualified',
] as const;
export type RegisterFamily = (typeof registerFamilies)[number];

/** The field of an entry that holds its number; `asicIdentifier` is the interface's own name (spec 2.9). */
export type RegisterIdentifierField =
  | 'registrationNumber'
  | 'licenceNumber'
  | 'representativeNumber'
  | 'asicIdentifier';

/**
 * The served registers (register-types less FX, IF, IG and IL), in the table's order, with their
 * family and identifier field (spec document 1, 2.9). Codes are case-sensitive.
 */
export const servedRegisters = {
  RA: { family: 'professional', identifierField: 'registrationNumber' },
  RQ: { family: 'professional', identifierField: 'registrationNumber' },
  OQ: { family: 'professional', identifierField: 'registrationNumber' },
  IA: { family: 'professional', identifierField: 'licenceNumber' },
  SD: { family: 'professional', identifierField: 'licenceNumber' },
  FB: { family: 'professional', identifierField: 'licenceNumber' },
  FD: { family: 'professional', identifierField: 'licenceNumber' },
  SP: { family: 'authorised-representatives', identifierField: 'representativeNumber' },
  FP: { family: 'authorised-representatives', identifierField: 'representativeNumber' },
  DD: { family: 'banned-disqualified', identifierField: 'asicIdentifier' },
  BS: { family: 'banned-disqualified', identifierField: 'asicIdentifier' },
  BF: { family: 'banned-disqualified', identifierField: 'asicIdentifier' },
} as const satisfies Record<string, { family: RegisterFamily; identifierField: RegisterIdentifierField }>;

export type RegisterCode = keyof typeof servedRegisters;
export const registerCodes = Object.keys(servedRegisters) as RegisterCode[];

export const isRegisterCode = (value: unknown): value is RegisterCode =>
  typeof value === 'string' && Object.hasOwn(servedRegisters, value);

/** The registry-code family of each register family's browse (01 invalid register, 02 key too short, 51 no match). */
export const browseCodeFamily = {
  professional: 'RP',
  'authorised-representatives': 'RR',
  'banned-disqualified': 'RB',
} as const satisfies Record<RegisterFamily, string>;

/** Register register-extract types: `current` (records of status C and F) or `historical` (E too). */
export const registerExtractTypes = ['current', 'historical'] as const;
export type RegisterExtractType = (typeof registerExtractTypes)[number];

/** What a browse row shows of an address: Australian (locality, state, postcode) or overseas (locality, country). */

/** One ban of a banned or disqualified person (a row of the regulator's banned-persons data). */
export interface RegistryBan {
  /** licence-ban-types code (BS* on BS, BF* on BF); null on DD. */
  type: string | null;
  from: IsoDate;
  /** Null when the ban has no end. */
  to: IsoDate | null;
  /** record-status code. */
  status: string;
  /** The notice's document number. */
  documentNumber: string;
  /** pre-asic-legislation code, for bans made under a pre-1991 Act; else null. */
  legislation: string | null;
  /** The registry's comments; the registry's "No comment made" arrives as null. */
  comments: string | null;
}

/** One entry of a register: a browse row and an entry lookup have this shape. */
export interface RegistryRegisterEntry {
  /** register-types code. */
  register: RegisterCode;
  /** The entry's number, leading zeros kept (in the register's identifier field). */
  number: string;
  /** A person or an organisation (auditors and dealers can be companies). */
  holder: RegistryParty;
  /** register-status code (C, S); null on banned and disqualified registers. */
  status: string | null;
  /** licence-statuses code; IA, SD, FB and FD only, else null. */
  licenceStatus: string | null;
  from: IsoDate | null;
  to: IsoDate | null;
  /** Representatives: the licensee they act for. */
  principal: { name: string; licenceNumber: string } | null;
  /** Banned and disqualified registers: every ban of the subject, current and ceased; else null. */
  bans: RegistryBan[] | null;
  /** The principal place of practice, or the last recorded address. */
  address: RegistryPartialAddress | null;
}

/**
 * A register's address record: a company's shape, its `type` a register-address-types code (PS,
 * PA, OP for the professional registers; PA, RB for the representatives).
 */
export type RegistryRegisterAddress = RegistryAddressRecord;

export interface RegistryRegisterTrading {
  /** register-trading-types code: FI, TN, PN. */
  type: string;
  name: string;
  number: string | null;
}

export interface RegistryRegisterOfficer {
  /** register-officer-roles code. */
  role: string;
  status: string;
  appointedAt: IsoDate | null;
  ceasedAt: IsoDate | null;
  party: RegistryParty;
}

export interface RegistryAuthority {
  /** authorities-held code: RS, RI (SP), RF, RD (FP). */
  type: string;
  principal: { name: string; licenceNumber: string };
  from: IsoDate;
  to: IsoDate | null;
  status: string;
}

export interface RegistrySuspension {
  /** suspension-reasons code (an unknown one is shown with label = code). */
  reason: string;
  from: IsoDate;
  to: IsoDate | null;
  status: string;
}

/**
 * A register entry extract. Sections foreign to the register's family are null; a section that
 * applies but holds nothing is empty. The holder's birth is given where the registry has it (DD).
 */
export interface RegistryRegisterExtract {
  type: RegisterExtractType;
  asOf: IsoTimestamp;
  entry: RegistryRegisterEntry;
  addresses: RegistryRegisterAddress[];
  trading: RegistryRegisterTrading[] | null;
  officers: RegistryRegisterOfficer[] | null;
  authorities: RegistryAuthority[] | null;
  suspensions: RegistrySuspension[] | null;
  legislation: string | null;
  /** Newest first. */
  documents: RegistryDocument[];
}

/** A page of a browse and where the next one starts (null after the last). */
export interface RegistryRegisterPage {
  entries: RegistryRegisterEntry[];
  continuation: string | null;
}

/** The registers capability (RP, RR, RB, RQ, RS). */
export interface RegisterRegistry {
  /**
   * Free. The entries of `register` whose name begins with `key` (case and apostrophes ignored), in
   * the register's alphabetical order, `limit` at a time. Rejects xx01 (register not of the family's
   * operation or unknown), xx02 (key under two characters) and xx51 (no entry), with xx = RP, RR or
   * RB by family.
   */
  browseRegister(
    query: { register: string; key: string; limit: number; continuation: string | null },
    caller: RegistryCaller,
  ): Promise<RegistryRegisterPage>;
  /** Free. One entry by its number. Rejects RQ01 (register) and RQ51 (no such entry). */
  getRegisterEntry(register: string, number: string, caller: RegistryCaller): Promise<RegistryRegisterEntry>;
  /**
   * Billable (959A–959J by register). Rejects RS01 (register), RS02 (extract type) and RS51 (no such
   * entry); ZZ02 when the account has product RE disabled.
   */
  purchaseRegisterExtract(
    query: { register: string; number: string; type: RegisterExtractType },
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<RegistryRegisterExtract>;
}

export const registerRegistryMethods = methodsOf<RegisterRegistry>()([
  'browseRegister',
  'getRegisterEntry',
  'purchaseRegisterExtract',
]);

/** This capability's part of the registry port (shared/app/registry.ts). */
declare module '../kernel/registry-port.ts' {
  interface RegistryParts {
    registers: RegisterRegistry;
  }
}
