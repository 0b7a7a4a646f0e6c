/**
 * The sandbox registers: hand-written entries that show every documented register case
 * (docs/sandbox.md, "Registers") and generated liquidators large enough to page (300 on RQ, 60 of
 * them also on OQ, and 150 SMITHs, so a browse for SM runs past 100 matches). Test keys get these
 * entries and the registry simulator serves the same ones.
 *
 * Numbers agree with the licences of the same people in the person extracts (people-data.ts):
 * KOWALSKI's RQ 401234, DRAKE's DD 000312440 and 000198032, FAIRWEATHER's BS 000150921 and BF
 * 000150922. Nothing is built at import time: `sandboxRegisterRecords()` builds once, on first use.
 */

import {
  abnForAcn,
  acnWithCheckDigit,
  australianAddress,
  DocumentBook,
  organisationParty,
  person,
  sourceOf,
} from '../../adapters/sandbox/data/company-builders.ts';
import type { IsoDate, RegistryBirth, RegistryDocument, RegistryParty } from '../../kernel/registry-port.ts';
import type {
  RegisterCode,
  RegistryAuthority,
  RegistryBan,
  RegistryRegisterAddress,
  RegistryRegisterEntry,
  RegistryRegisterOfficer,
  RegistryRegisterTrading,
  RegistrySuspension,
} from '../registry-port.ts';

/** Everything the registry holds on one entry: the entry and the sections of its extract. */
export interface RegisterRecord {
  entry: RegistryRegisterEntry;
  /** The holder's birth, where the registry has it (disqualified directors): only in the extract. */
  birth: RegistryBirth | null;
  /** Other numbers the same subject is found by (earlier bans of a banned person). */
  otherNumbers: string[];
  addresses: RegistryRegisterAddress[];
  trading: RegistryRegisterTrading[];
  officers: RegistryRegisterOfficer[];
  authorities: RegistryAuthority[];
  suspensions: RegistrySuspension[];
  legislation: string | null;
  documents: RegistryDocument[];
}

/** The documented register cases (docs/sandbox.md lists them). */
export const SANDBOX_REGISTERS = {
  /** ANNA MARIA KOWALSKI, liquidator with a firm (FI); PS, PA and OP addresses, one OP ceased. */
  liquidator: { register: 'RQ', number: '401234', familyName: 'KOWALSKI' },
  /** THANH NGUYEN: a practice name (PN) on RQ, and also an official liquidator on OQ. */
  officialLiquidator: { register: 'RQ', number: '402511', officialNumber: '512001' },
  /** OTTO BRANDT: a suspended liquidator (status S), one suspension reason the code tables do not know (XPRV). */
  suspendedLiquidator: { register: 'RQ', number: '403377', unknownReason: 'XPRV' },
  /** PRIYA PATEL, an individual registered auditor. */
  auditor: { register: 'RA', number: '301122' },
  /** LEDGERLINE AUDIT PTY LTD, an authorised audit company: the holder is an organisation. */
  auditCompany: { register: 'RA', number: '301988' },
  /** SIOBHAN O'BRIEN, auditor: browsing OBRIEN or o'brien finds her. */
  apostrophe: { register: 'RA', number: '302450', familyName: "O'BRIEN" },
  /** HARBOURSIDE SECURITIES LIMITED: a body-corporate dealer with officers, under legislation 0002. */
  dealer: { register: 'SD', number: '000113245' },
  /** GRAHAM MERCER: an investment adviser whose licence was revoked (NOAC). */
  revokedLicence: { register: 'IA', number: '000087731' },
  /** DANIEL LIM: a securities representative of HARBOURSIDE with RS and RI authorities, RI ended. */
  representative: { register: 'SP', number: '000245990' },
  /** VICTOR JAMES DRAKE: disqualified, a current ban (000312440) and a ceased one (000198032), birth in the extract. */
  disqualified: { register: 'DD', number: '000312440', earlierNumber: '000198032' },
  /** MARTIN CROWE: disqualified under the Companies Act (0001) with no end date. */
  openEndedBan: { register: 'DD', number: '000051207' },
  /** ROSALIE JANE FAIRWEATHER: banned securities (BSC) and futures (BFC) representative, both ceased. */
  bannedSecurities: { register: 'BS', number: '000150921' },
  bannedFutures: { register: 'BF', number: '000150922' },
  /** Browse keys: SM runs past 100 matches on RQ; ZZ matches nothing; K is too short. */
  browse: { paged: 'SM', pagedRegister: 'RQ', smithCount: 150, none: 'ZZ', tooShort: 'K' },
  /** A number no register holds. */
  unknownNumber: '999999999',
} as const;

const partial = (address: {
  locality: string;
  state: string | null;
  postcode: string | null;
  country: string;
}) => ({
  locality: address.locality,
  state: address.state,
  postcode: address.postcode,
  country: address.country,
});

interface RecordSpec {
  register: RegisterCode;
  number: string;
  holder: RegistryParty;
  status?: string | null;
  licenceStatus?: string | null;
  from: IsoDate | null;
  to?: IsoDate | null;
  principal?: { name: string; licenceNumber: string } | null;
  bans?: RegistryBan[] | null;
  birth?: RegistryBirth | null;
  otherNumbers?: string[];
  addresses?: RegistryRegisterAddress[];
  trading?: RegistryRegisterTrading[];
  officers?: RegistryRegisterOfficer[];
  authorities?: RegistryAuthority[];
  suspensions?: RegistrySuspension[];
  legislation?: string | null;
  documents?: RegistryDocument[];
}

/** The entry's partial address: the current principal place (PA), else the latest address. */
function entryAddress(addresses: readonly RegistryRegisterAddress[]) {
  const current = addresses.filter((record) => record.status === 'C');
  const chosen =
    current.find((record) => record.type === 'PA') ?? current[0] ?? addresses[addresses.length - 1];
  return chosen ? partial(chosen.address) : null;
}

export function registerRecord(spec: RecordSpec): RegisterRecord {
  const addresses = spec.addresses ?? [];
  return {
    entry: {
      register: spec.register,
      number: spec.number,
      holder: { ...spec.holder, birth: null },
      status: spec.status === undefined ? (spec.bans ? null : 'C') : spec.status,
      licenceStatus: spec.licenceStatus ?? null,
      from: spec.from,
      to: spec.to ?? null,
      principal: spec.principal ?? null,
      bans: spec.bans ?? null,
      address: entryAddress(addresses),
    },
    birth: spec.birth ?? null,
    otherNumbers: spec.otherNumbers ?? [],
    addresses,
    trading: spec.trading ?? [],
    officers: spec.officers ?? [],
    authorities: spec.authorities ?? [],
    suspensions: spec.suspensions ?? [],
    legislation: spec.legislation ?? null,
    documents: [...(spec.documents ?? [])].sort((a, b) => b.receivedAt.localeCompare(a.receivedAt)),
  };
}

export const registerAddress = (
  type: string,
  address: RegistryRegisterAddress['address'],
  from: IsoDate,
  source: RegistryDocument,
  to: IsoDate | null = null,
): RegistryRegisterAddress => ({
  type,
  status: to === null ? 'C' : 'E',
  from,
  to,
  address,
  sourceDocument: sourceOf(source),
});

const ban = (
  documentNumber: string,
  from: IsoDate,
  to: IsoDate | null,
  options: {
    type?: string | null;
    status?: string;
    legislation?: string | null;
    comments?: string | null;
  } = {},
): RegistryBan => ({
  type: options.type ?? null,
  from,
  to,
  status: options.status ?? (to === null ? 'C' : 'E'),
  documentNumber,
  legislation: options.legislation ?? null,
  comments: options.comments ?? null,
});

/** The registry's register documents: nine characters from 9R0010001 (one block per record). */
const documentBook = (block: number) => {
  let sequence = 0;
  return new DocumentBook(() => `9R${String(block).padStart(3, '0')}${String(++sequence).padStart(4, '0')}`);
};

let built: RegisterRecord[] | undefined;

/** Every sandbox register record, hand-written cases first, then the generated liquidators. */
export function sandboxRegisterRecords(): readonly RegisterRecord[] {
  built ??= [...documentedRecords(), ...generatedLiquidators()];
  return built;
}

function documentedRecords(): RegisterRecord[] {
  const records: RegisterRecord[] = [];

  // RQ: KOWALSKI, with the insolvency office the person extract shows.
  {
    const book = documentBook(1);
    const consent = book.lodge('902', '1995-02-01');
    const moved = book.lodge('902', '2011-07-04');
    const insolvency = australianAddress('200 ADELAIDE STREET', 'BRISBANE', 'QLD', '4000', {
      line1: 'LEVEL 8',
    });
    records.push(
      registerRecord({
        register: 'RQ',
        number: '401234',
        holder: person('KOWALSKI', 'ANNA MARIA'),
        from: '1995-02-01',
        addresses: [
          registerAddress(
            'PS',
            australianAddress('GPO BOX 1822', 'BRISBANE', 'QLD', '4001'),
            '1995-02-01',
            consent,
          ),
          registerAddress('PA', insolvency, '2011-07-04', moved),
          registerAddress(
            'OP',
            australianAddress('14 DENHAM STREET', 'ROCKHAMPTON', 'QLD', '4700'),
            '2011-07-04',
            moved,
          ),
          registerAddress(
            'OP',
            australianAddress('3 FLINDERS STREET', 'TOWNSVILLE', 'QLD', '4810'),
            '1995-02-01',
            consent,
            '2011-07-03',
          ),
        ],
        trading: [{ type: 'FI', name: 'KOWALSKI INSOLVENCY PARTNERS', number: null }],
        documents: book.documents,
      }),
    );
  }

  // RQ and OQ: NGUYEN, a practice name.
  {
    const book = documentBook(2);
    const consent = book.lodge('902', '2004-09-13');
    const office = australianAddress('55 COLLINS STREET', 'MELBOURNE', 'VIC', '3000', { line1: 'LEVEL 20' });
    const common = {
      holder: person('NGUYEN', 'THANH'),
      addresses: [registerAddress('PA', office, '2004-09-13', consent)],
      trading: [{ type: 'PN', name: 'NGUYEN RESTRUCTURING', number: null }],
      documents: book.documents,
    };
    records.push(registerRecord({ register: 'RQ', number: '402511', from: '2004-09-13', ...common }));
    records.push(registerRecord({ register: 'OQ', number: '512001', from: '2009-03-02', ...common }));
  }

  // RQ: BRANDT, suspended; one reason is a code the tables do not have.
  {
    const book = documentBook(3);
    const consent = book.lodge('902', '1999-05-20');
    book.lodge('902', '2024-02-12');
    records.push(
      registerRecord({
        register: 'RQ',
        number: '403377',
        holder: person('BRANDT', 'OTTO'),
        status: 'S',
        from: '1999-05-20',
        addresses: [
          registerAddress(
            'PA',
            australianAddress('9 KING WILLIAM STREET', 'ADELAIDE', 'SA', '5000'),
            '1999-05-20',
            consent,
          ),
        ],
        trading: [{ type: 'FI', name: 'BRANDT & CO', number: null }],
        suspensions: [
          { reason: 'INCA', from: '2024-02-12', to: null, status: 'C' },
          { reason: 'XPRV', from: '2024-02-12', to: null, status: 'C' },
          { reason: 'NFAP', from: '2016-03-01', to: '2016-06-30', status: 'E' },
        ],
        documents: book.documents,
      }),
    );
  }

  // RA: an individual, an audit company, and O'BRIEN.
  {
    const book = documentBook(4);
    const consent = book.lodge('902', '2008-11-03');
    records.push(
      registerRecord({
        register: 'RA',
        number: '301122',
        holder: person('PATEL', 'PRIYA'),
        from: '2008-11-03',
        addresses: [
          registerAddress(
            'PA',
            australianAddress('1 MARTIN PLACE', 'SYDNEY', 'NSW', '2000'),
            '2008-11-03',
            consent,
          ),
        ],
        trading: [{ type: 'TN', name: 'PATEL AUDIT SERVICES', number: null }],
        documents: book.documents,
      }),
    );
  }
  {
    const book = documentBook(5);
    const consent = book.lodge('902', '2013-04-15');
    const acn = acnWithCheckDigit('61401988');
    records.push(
      registerRecord({
        register: 'RA',
        number: '301988',
        holder: organisationParty({
          name: 'LEDGERLINE AUDIT PTY LTD',
          number: acn,
          numberType: 'ACN',
          abn: abnForAcn(acn),
        }),
        from: '2013-04-15',
        addresses: [
          registerAddress(
            'PA',
            australianAddress('80 ST GEORGES TERRACE', 'PERTH', 'WA', '6000'),
            '2013-04-15',
            consent,
          ),
        ],
        officers: [
          {
            role: 'DR',
            status: 'C',
            appointedAt: '2013-04-15',
            ceasedAt: null,
            party: person('OKAFOR', 'CHIDI'),
          },
          {
            role: 'AA',
            status: 'C',
            appointedAt: '2013-04-15',
            ceasedAt: null,
            party: person('PATEL', 'PRIYA'),
          },
        ],
        documents: book.documents,
      }),
    );
  }
  {
    const book = documentBook(6);
    const consent = book.lodge('902', '2015-08-24');
    records.push(
      registerRecord({
        register: 'RA',
        number: '302450',
        holder: person("O'BRIEN", 'SIOBHAN'),
        from: '2015-08-24',
        addresses: [
          registerAddress(
            'PA',
            australianAddress('12 MACQUARIE STREET', 'HOBART', 'TAS', '7000'),
            '2015-08-24',
            consent,
          ),
        ],
        documents: book.documents,
      }),
    );
  }

  // SD: a body-corporate dealer under the Securities Industry Act; SP: its representative.
  const dealerName = 'HARBOURSIDE SECURITIES LIMITED';
  {
    const book = documentBook(7);
    const licensed = book.lodge('902', '1987-06-01');
    const acn = acnWithCheckDigit('00113245');
    records.push(
      registerRecord({
        register: 'SD',
        number: '000113245',
        holder: organisationParty({ name: dealerName, number: acn, numberType: 'ACN', abn: abnForAcn(acn) }),
        licenceStatus: 'APPR',
        from: '1987-06-01',
        addresses: [
          registerAddress(
            'PA',
            australianAddress('2 THE ESPLANADE', 'DARWIN', 'NT', '0800'),
            '1987-06-01',
            licensed,
          ),
        ],
        trading: [{ type: 'TN', name: 'HARBOURSIDE BROKING', number: null }],
        officers: [
          {
            role: 'DR',
            status: 'C',
            appointedAt: '1987-06-01',
            ceasedAt: null,
            party: person('FLETCHER', 'ANNE'),
          },
          {
            role: 'SR',
            status: 'C',
            appointedAt: '1990-01-15',
            ceasedAt: null,
            party: person('WONG', 'KEVIN'),
          },
          {
            role: 'EO',
            status: 'E',
            appointedAt: '1987-06-01',
            ceasedAt: '1998-12-31',
            party: person('BARNES', 'HUGH'),
          },
        ],
        legislation: '0002',
        documents: book.documents,
      }),
    );
  }
  {
    const book = documentBook(8);
    const appointed = book.lodge('902', '1992-03-09');
    records.push(
      registerRecord({
        register: 'SP',
        number: '000245990',
        holder: person('LIM', 'DANIEL'),
        from: '1992-03-09',
        principal: { name: dealerName, licenceNumber: '000113245' },
        addresses: [
          registerAddress(
            'PA',
            australianAddress('2 THE ESPLANADE', 'DARWIN', 'NT', '0800'),
            '1992-03-09',
            appointed,
          ),
          registerAddress(
            'RB',
            australianAddress('40 MITCHELL STREET', 'DARWIN', 'NT', '0800'),
            '1992-03-09',
            appointed,
          ),
        ],
        authorities: [
          {
            type: 'RS',
            principal: { name: dealerName, licenceNumber: '000113245' },
            from: '1992-03-09',
            to: null,
            status: 'C',
          },
          {
            type: 'RI',
            principal: { name: dealerName, licenceNumber: '000113245' },
            from: '1992-03-09',
            to: '2001-06-30',
            status: 'E',
          },
        ],
        documents: book.documents,
      }),
    );
  }

  // IA: a revoked licence.
  {
    const book = documentBook(9);
    const licensed = book.lodge('902', '1989-10-02');
    records.push(
      registerRecord({
        register: 'IA',
        number: '000087731',
        holder: person('MERCER', 'GRAHAM'),
        licenceStatus: 'NOAC',
        from: '1989-10-02',
        to: '2003-05-16',
        addresses: [
          registerAddress(
            'PA',
            australianAddress('7 RUNDLE STREET', 'KENT TOWN', 'SA', '5067'),
            '1989-10-02',
            licensed,
            '2003-05-16',
          ),
        ],
        legislation: '0002',
        documents: book.documents,
      }),
    );
  }

  // DD: DRAKE (two bans, as his person extract's DD licences), CROWE (open-ended, Companies Act).
  {
    const book = documentBook(10);
    const current = book.lodge('902', '2021-06-01');
    const earlier = book.lodge('902', '2009-01-15');
    records.push(
      registerRecord({
        register: 'DD',
        number: '000312440',
        otherNumbers: ['000198032'],
        holder: person('DRAKE', 'VICTOR JAMES'),
        birth: { date: '1958-02-14', locality: 'PERTH', stateOrCountry: 'WA' },
        from: '2009-01-15',
        addresses: [
          registerAddress(
            'PA',
            australianAddress('6 SWAN STREET', 'FREMANTLE', 'WA', '6160'),
            '2009-01-15',
            earlier,
          ),
        ],
        bans: [
          ban(current.documentNumber, '2021-06-01', '2031-05-31', { status: 'C' }),
          ban(earlier.documentNumber, '2009-01-15', '2012-01-14'),
        ],
        documents: book.documents,
      }),
    );
  }
  {
    const book = documentBook(11);
    const order = book.lodge('902', '1989-05-01');
    records.push(
      registerRecord({
        register: 'DD',
        number: '000051207',
        holder: person('CROWE', 'MARTIN'),
        birth: { date: '1941-07-19', locality: 'BALLARAT', stateOrCountry: 'VIC' },
        from: '1989-05-01',
        addresses: [
          registerAddress(
            'PA',
            australianAddress('31 STURT STREET', 'BALLARAT', 'VIC', '3350'),
            '1989-05-01',
            order,
          ),
        ],
        bans: [
          ban(order.documentNumber, '1989-05-01', null, {
            legislation: '0001',
            comments: 'Order of the Supreme Court of Victoria',
          }),
        ],
        legislation: '0001',
        documents: book.documents,
      }),
    );
  }

  // BS and BF: FAIRWEATHER, both ceased (her person extract's BS and BF licences).
  {
    const book = documentBook(12);
    const lapsed = book.lodge('902', '2006-04-01');
    const office = australianAddress('100 EAGLE STREET', 'BRISBANE', 'QLD', '4000', { line1: 'LEVEL 3' });
    for (const [register, number, type] of [
      ['BS', '000150921', 'BSC'],
      ['BF', '000150922', 'BFC'],
    ] as const) {
      records.push(
        registerRecord({
          register,
          number,
          holder: person('FAIRWEATHER', 'ROSALIE JANE'),
          from: '2006-04-01',
          addresses: [registerAddress('PA', office, '2006-04-01', lapsed)],
          bans: [ban(lapsed.documentNumber, '2006-04-01', '2011-03-31', { type })],
          documents: book.documents,
        }),
      );
    }
  }
  return records;
}

const GIVEN_NAMES = [
  'ADAM',
  'BELINDA',
  'CALLUM',
  'DEBORAH',
  'EDWARD',
  'FIONA',
  'GEORGE',
  'HANNAH',
  'IAN',
  'JESSICA',
  'KEITH',
  'LAURA',
  'MARCUS',
  'NICOLE',
  'OLIVER',
  'PAULA',
  'QUENTIN',
  'RACHEL',
  'SIMON',
  'TARA',
  'URSULA',
  'VINCENT',
  'WENDY',
  'XAVIER',
  'YVONNE',
];
const FAMILY_NAMES = [
  'ABBOTT',
  'BAKER',
  'CHAN',
  'DAWSON',
  'ELLIS',
  'FOSTER',
  'GRANT',
  'HUGHES',
  'IRWIN',
  'JAMES',
  'KELLY',
  'LAWSON',
  'MORGAN',
  'NASH',
  'OWENS',
  'PRICE',
  'REID',
  'SHAW',
  'TURNER',
  'VAUGHAN',
];
const LOCALITIES = [
  ['SYDNEY', 'NSW', '2000'],
  ['MELBOURNE', 'VIC', '3000'],
  ['BRISBANE', 'QLD', '4000'],
  ['PERTH', 'WA', '6000'],
  ['ADELAIDE', 'SA', '5000'],
  ['HOBART', 'TAS', '7000'],
] as const;

/** 300 liquidators on RQ (150 of them SMITH), one in five also an official liquidator on OQ. */
function generatedLiquidators(): RegisterRecord[] {
  const records: RegisterRecord[] = [];
  for (let i = 0; i < 300; i++) {
    const familyName = i < 150 ? 'SMITH' : (FAMILY_NAMES[i % FAMILY_NAMES.length] as string);
    const first = i % GIVEN_NAMES.length;
    const second = (first + 1 + Math.floor(i / GIVEN_NAMES.length)) % GIVEN_NAMES.length;
    const given = `${GIVEN_NAMES[first]} ${GIVEN_NAMES[second]}`;
    const [locality, state, postcode] = LOCALITIES[i % LOCALITIES.length] as (typeof LOCALITIES)[number];
    const from = `${1990 + (i % 30)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
    const book = documentBook(100 + i);
    const consent = book.lodge('902', from);
    const common = {
      holder: person(familyName, given),
      from,
      addresses: [
        registerAddress(
          'PA',
          australianAddress(`${i + 1} MAIN STREET`, locality, state, postcode),
          from,
          consent,
        ),
      ],
      trading: [
        i % 2 === 0
          ? { type: 'FI', name: `${familyName} & ASSOCIATES`, number: null }
          : { type: 'PN', name: `${familyName} ${given.split(' ')[0]} INSOLVENCY`, number: null },
      ],
      documents: book.documents,
    };
    records.push(registerRecord({ register: 'RQ', number: String(420000 + i), ...common }));
    if (i % 5 === 0) records.push(registerRecord({ register: 'OQ', number: String(520000 + i), ...common }));
  }
  return records;
}
