/**
 * The sandbox register: hand-written, deterministic organisations that show every documented
 * case (docs/sandbox.md), plus loops: 120 ACME WIDGETS companies for a search that selects too
 * many names, 60 WIDGETS WORLD companies that make an offline search of 180 names with them, one
 * company with 1,000 office holders and 2,000 documents, and the charges of the larger charges
 * extracts. Test keys always get this data; the registry simulator serves it too, beside a
 * generated dataset.
 *
 * Every number sits in the block 990 0xx xxx, which the registry has not issued, and passes its
 * check digit. Records are deliberately listed out of order so that the registry's sorting shows.
 * Nothing is built at import time: `sandboxRecords()` builds once, on first use. The people of the
 * personal name index are in people-data.ts, and `sandboxDataset()` (sandbox.ts) joins both. The
 * builders the cases are made with are in builders/companies.ts.
 */

import { addDays } from '../../../kernel/calendar-days.ts';
import type {
  IsoDate,
  RegistryAddress,
  RegistryCharge,
  RegistryCompany,
  RegistryOfficeholder,
  RegistryParty,
} from '../../../kernel/registry-port.ts';
import { type CompanyRecord, companyRecord } from '../dataset.ts';
import {
  acnWithCheckDigit,
  addressRecord,
  australianAddress,
  charge,
  chargeSeries,
  DocumentBook,
  member,
  officeholder,
  organisation,
  organisationParty,
  overseasAddress,
  person,
  relationship,
  shareClass,
} from './company-builders.ts';

/** Identifiers of the documented sandbox cases (docs/sandbox.md lists them with their cases). */
export const SANDBOX = {
  /** APTY, REGD: C, F and E office holders, share classes, AR/FR documents; no charges, no relationships. */
  proprietary: '990000014',
  /** APUB, REGD, listed: holds roles in five other organisations (relational extract). */
  public: '990000023',
  /** APUB bank, the organisation chargee of the charges below. */
  bank: '990000032',
  /** FNOS with an ARBN; registered address in New Zealand. */
  foreignCompany: '990000041',
  /** RACN with an ARBN. */
  registeredBody: '990000050',
  /** MISM with an ARSN and scheme categories MTGE and REAL; no relational extract. */
  scheme: '990000069',
  /** TRST, number type NUMBER: no company extract. */
  trust: '990000078',
  /** ASSN, number type NUMBER: no company extract. */
  association: '990000087',
  /** EXAD: external administration section (administrators AC and AD, forms 505). */
  externalAdministration: '990000096',
  /** DRGD, reason S601AA (voluntary deregistration, form 6010). */
  deregistered: '990000103',
  /** DRGD with the reason code S999, which the table does not know. */
  deregisteredUnknownReason: '990000112',
  /** SOFF (strike-off action in progress). */
  strikeOff: '990000121',
  /** Converted pre-1991 addresses (several components in `street`, postcode null); no ABN. */
  preAsicAddresses: '990000130',
  /** Satisfied and deleted charges, 23 pages: a large charges extract. */
  satisfiedCharges: '990000149',
  /** One satisfied charge, 5 pages: a small charges extract. */
  smallChargesExtract: '990000158',
  /** 30 satisfied charges, 570 pages: too large for web delivery. */
  hugeChargesExtract: '990000167',
  /** Codes the tables do not know: sub-class QQQQ, office-holder role ZX, form 9ZZ. */
  unknownCodes: '990000176',
  /** APUB limited by guarantee, registered charity: a director's person extract has an acnc_charity notice. */
  charity: '990000185',
  /** 1,000 office holders and 2,000 documents. */
  largeCompany: '990000201',
  /** Two satisfied charges, 30 pages: the charges extract of the orders benchmark (large, may be emailed). */
  benchmarkChargesExtract: '990000210',
  /** 12 satisfied charges, 240 pages: web or post, never email. */
  mediumChargesExtract: '990000229',
  /**
   * Two satisfied charges, 8 pages; the notification of the older one (1987, a state-office charge
   * with a pre-1991 number) is imaged but its image is unavailable.
   */
  unavailableChargeImage: '990000238',
  /**
   * Two charges still current when the register moved to the PPSR on 2012-01-30, and migrated there
   * (status DELT, no satisfaction date): the current charges extract (scope current, fee 955C), 9 pages.
   */
  currentCharges: '990000247',
  /** The organisation of the document image cases (`documents`). */
  imageOrders: '990000256',
  /** BUSN, a business name: its documents are lodged against no organisation or person. */
  businessName: '990000265',
  /** Historical extract with an empty charges list. */
  noCharges: '990000014',
  /** Relational extract with six relationships. */
  relational: '990000023',
  /** APTY without relationships: relational extract rejected CR02. */
  noRelationships: '990000121',
  /** Passes the check digit; no organisation has it (CE03). */
  unknownNumber: '990000998',
  /** ABN recorded for the proprietary company. */
  abnRecorded: '23990000014',
  /** Valid ABN embedding the ACN of `preAsicAddresses`, which has no ABN recorded (CE12). */
  abnNotRecorded: '50990000130',
  /** Valid ABN embedding `unknownNumber`, which no organisation has (CE13). */
  abnNoCompany: '32990000998',
  charges: {
    /** SATF, migrated from a state office (preAsicChargeNumber), registered at 00:00:00. */
    migrated: '9900141',
    /** SATF with a joint chargee of two persons. */
    jointChargee: '9900142',
    /** DELT (lodged in error). */
    deleted: '9900143',
    /** The one charge of `smallChargesExtract`. */
    small: '9900151',
    /** First of the 30 charges of `hugeChargesExtract` (9901601 to 9901630). */
    hugeFirst: '9901601',
    /** Nine digits or fewer but unknown (CH01). */
    unknown: '9999999',
    /** The state-office charge of `unavailableChargeImage`, preAsicChargeNumber 00031877. */
    unavailableImage: '9900231',
    /** The two migrated charges of `currentCharges`. */
    currentFirst: '9900241',
    currentSecond: '9900242',
  },
  /** Documents for image orders (getDocuments, requestImages). */
  documents: {
    /** Form 388 of `imageOrders`, 64 pages: organisation context (fee 951). */
    organisation: '9E0250004',
    /** Form 902 (supplementary document) of `imageOrders`, 6 pages. */
    supplementary: '9E0250003',
    /** Form 201 of `imageOrders` (1984), `imaged` false: DI52. */
    notImaged: '9E0250001',
    /** Form 484 of `imageOrders` lodged with a state office in 1990: imaged, image unavailable. */
    unavailable: '9E0250002',
    /** The 1987 notification (309) of `charges.unavailableImage`: imaged, image unavailable. */
    unavailableCharge: '9E0230002',
    /** A 484 lodged against MICHAEL PATRICK O'BRIEN's name record only: person context (fee 954), 3 pages. */
    person: '9P0010001',
    /** Form BN01 of the business name `businessName`, 2 pages: other context (fee 949). */
    other: '9E0260001',
    /** Form BN03 of the business name, 1 page: other context. */
    otherRenewal: '9E0260002',
    /** Nine characters, starting with a digit, but no document has it (DD51, DI51). */
    unknown: '9E9999999',
  },
  search: {
    /** Scope current: 4 matches, scores 84, 84, 49, 18; scope all adds a former name (81). */
    scored: 'southern cross',
    /** One match, score 100. */
    exact: 'southern cross bank limited',
    /** 120 names: ON52 with counts {returned: 0, found: 120}. */
    tooMany: 'acme widgets',
    /** ON51 with counts {returned: 0, found: 0}. */
    none: 'zyzzyva',
    /**
     * Offline search: 180 matches, the 60 WIDGETS WORLD companies (score 75) then the 120 ACME
     * WIDGETS (score 45); online it is ON52 with counts {returned: 0, found: 180}.
     */
    offline: 'widgets',
  },
  /** How many ACME WIDGETS nnn PTY LTD companies there are (990 010 01c onwards). */
  acmeCompanies: 120,
  /** How many WIDGETS WORLD nnn PTY LTD companies there are (990 020 01c onwards). */
  widgetsWorldCompanies: 60,
  /** Matches of the offline search `search.offline`. */
  offlineMatches: 180,
} as const;

/** Document numbers 9E + three-digit book + four-digit sequence: nine characters. */
const sandboxBook = (book: number): DocumentBook => {
  let sequence = 0;
  return new DocumentBook(() => `9E${String(book).padStart(3, '0')}${String(++sequence).padStart(4, '0')}`);
};

// ---------------------------------------------------------------------------------------------
// The organisations
// ---------------------------------------------------------------------------------------------

const SUBFORM_ADDRESS: [string, string] = ['484A1', 'Change of address'];
const SUBFORM_OFFICEHOLDER: [string, string] = ['484E', 'Appointment or cessation of a company officeholder'];
const SUBFORM_SHARES: [string, string] = ['484G', 'Notification of share issue'];

const sydneyOffice = australianAddress('1 MACQUARIE PLACE', 'SYDNEY', 'NSW', '2000', { line1: 'LEVEL 20' });

function bank(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.bank,
    name: 'SOUTHERN CROSS BANK LIMITED',
    type: 'APUB',
    subClass: 'LIST',
    status: 'REGD',
    registeredAt: '1981-11-02',
  });
  const book = sandboxBook(3);
  const registration = book.lodge('201', '1981-11-02', { imaged: false });
  const moved = book.lodge('484', '2009-05-11', { subForms: [SUBFORM_ADDRESS] });
  book.lodge('388', '2024-09-20', { qualifier: 'FR2024', pageCount: 180, xbrl: true });
  const office = australianAddress('275 KENT STREET', 'SYDNEY', 'NSW', '2000', { line1: 'LEVEL 12' });
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('HALL', 'CATHERINE MARY', ['1965-02-09', 'HOBART', 'TAS']), {
        appointedAt: '2014-03-01',
        address: australianAddress('8 WOLSELEY ROAD', 'POINT PIPER', 'NSW', '2027'),
        source: moved,
      }),
      officeholder('SR', person('DOUGLAS', 'IAN'), { appointedAt: '2009-05-11', source: moved }),
    ],
    addresses: [
      addressRecord('RG', '2009-05-11', null, office, moved),
      addressRecord(
        'RG',
        '1981-11-02',
        '2009-05-10',
        australianAddress('60 MARTIN PLACE', 'SYDNEY', 'NSW', '2000'),
        registration,
      ),
    ],
    documents: book.documents,
    relationships: [],
  });
}

function proprietary(parent: RegistryCompany): CompanyRecord {
  const company = organisation({
    number: SANDBOX.proprietary,
    name: 'BLUEGUM ORCHARDS PTY LTD',
    type: 'APTY',
    status: 'REGD',
    registeredAt: '2010-07-01',
    formerNames: [{ name: 'BLUEGUM FARMING PTY LTD', from: '2010-07-01', to: '2016-02-29' }],
  });
  const book = sandboxBook(1);
  const registration = book.lodge('201', '2010-07-01');
  book.lodge('902', '2011-03-01', { imaged: false, priced: false });
  const obrien = book.lodge('484', '2012-01-20', { subForms: [SUBFORM_OFFICEHOLDER] });
  book.lodge('480', '2013-07-15', { qualifier: 'AR2013' });
  book.lodge('388', '2014-10-31', { qualifier: 'FR2014', pageCount: 26, xbrl: true });
  const resignation = book.lodge('370', '2015-07-02', { pageCount: 1 });
  const takeover = book.lodge('484', '2016-03-04', {
    subForms: [SUBFORM_ADDRESS, SUBFORM_OFFICEHOLDER, SUBFORM_SHARES],
  });
  // Same day as the 484 above: the higher document number is listed first.
  const shares = book.lodge('2205', '2016-03-04');
  const nguyen = book.lodge('484', '2018-02-16', { subForms: [SUBFORM_OFFICEHOLDER] });
  const secretary = book.lodge('484', '2018-10-03', { subForms: [SUBFORM_OFFICEHOLDER] });
  book.lodge('388', '2019-10-30', { qualifier: 'FR2019', pageCount: 31, xbrl: true });
  const cessation = book.lodge('484', '2019-12-02', { subForms: [SUBFORM_OFFICEHOLDER] });
  const contact = book.lodge('484', '2020-01-13', { subForms: [SUBFORM_ADDRESS] });
  book.lodge('480', '2024-07-15', { qualifier: 'AR2024' });
  const future = book.lodge('484', '2025-06-20', {
    effectiveAt: '2030-07-01',
    subForms: [SUBFORM_OFFICEHOLDER],
    underRequisition: true,
  });

  const jane = person('SMITH', 'JANE ELIZABETH', ['1970-03-12', 'ORANGE', 'NSW']);
  const robert = person('SMITH', 'ROBERT JOHN', ['1968-11-30', 'DUBBO', 'NSW']);
  const michael = person("O'BRIEN", 'MICHAEL PATRICK', ['1975-06-01', 'DUBLIN', 'IRELAND']);
  const thanh = person('NGUYEN', 'THANH', ['1982-09-23', 'HO CHI MINH CITY', 'VIET NAM']);
  const home = australianAddress('22 KITE STREET', 'ORANGE', 'NSW', '2800');
  const orchard = australianAddress('14 ORCHARD ROAD', 'ORANGE', 'NSW', '2800');

  return companyRecord({
    company,
    officeholders: [
      officeholder('UH', organisationParty(parent), {
        appointedAt: '2016-03-01',
        address: sydneyOffice,
        source: takeover,
      }),
      officeholder('DR', robert, {
        appointedAt: '2010-07-01',
        ceasedAt: '2015-06-30',
        address: home,
        source: resignation,
      }),
      officeholder('AA', organisationParty({ name: 'PEARSON WHITE CHARTERED ACCOUNTANTS' }), {
        appointedAt: '2016-03-01',
        address: australianAddress('101 BYNG STREET', 'ORANGE', 'NSW', '2800'),
        source: takeover,
      }),
      officeholder('DR', jane, { appointedAt: '2010-07-01', address: home, source: registration }),
      officeholder('SR', michael, { appointedAt: '2012-01-16', ceasedAt: '2018-09-30', source: secretary }),
      officeholder('DR', person('PATEL', 'PRIYA', ['1988-01-17', 'PERTH', 'WA']), {
        status: 'F',
        appointedAt: '2030-07-01',
        address: australianAddress('5 HILL STREET', 'ORANGE', 'NSW', '2800'),
        source: future,
      }),
      officeholder('DR', michael, { appointedAt: '2012-01-16', ceasedAt: '2019-11-30', source: cessation }),
      officeholder('LD', thanh, { appointedAt: '2012-01-16', ceasedAt: '2017-04-30', source: obrien }),
      officeholder('SR', jane, { appointedAt: '2018-10-01', address: home, source: secretary }),
      officeholder('DR', thanh, {
        appointedAt: '2018-02-14',
        address: australianAddress('9 BATHURST ROAD', 'ORANGE', 'NSW', '2800'),
        source: nguyen,
      }),
    ],
    addresses: [
      addressRecord(
        'PA',
        '2010-07-01',
        '2012-05-31',
        australianAddress('3 SUMMER STREET', 'ORANGE', 'NSW', '2800'),
        registration,
      ),
      addressRecord(
        'CC',
        '2020-01-13',
        null,
        australianAddress('PO BOX 112', 'ORANGE', 'NSW', '2800'),
        contact,
      ),
      addressRecord(
        'RG',
        '2010-07-01',
        '2016-02-29',
        australianAddress('3 SUMMER STREET', 'ORANGE', 'NSW', '2800'),
        registration,
      ),
      addressRecord(
        'PA',
        '2016-03-01',
        null,
        australianAddress('LOT 7 MITCHELL HIGHWAY', 'MOLONG', 'NSW', '2866'),
        takeover,
      ),
      addressRecord('PA', '2012-06-01', '2016-02-29', orchard, obrien),
      addressRecord('RG', '2016-03-01', null, orchard, takeover),
    ],
    shareClasses: [
      shareClass('A', 'A CLASS SHARES', 'E', 100, '100.00', registration),
      shareClass('ORD', 'ORDINARY SHARES', 'C', 1000, '1000.00', registration),
      shareClass('PREF', 'PREFERENCE SHARES', 'C', 500, '50000.00', shares),
    ],
    members: [
      member('ORD', 'E', robert, 300, resignation),
      member('ORD', 'C', jane, 600, registration),
      member('A', 'E', michael, 100, shares),
      member('ORD', 'C', thanh, 400, nguyen),
      member('PREF', 'C', organisationParty(parent), 500, shares, false),
    ],
    documents: book.documents,
  });
}

function foreignCompany(agent: RegistryCompany): CompanyRecord {
  const company = organisation({
    number: SANDBOX.foreignCompany,
    name: 'KIWI FERNLEAF TRADING LIMITED',
    type: 'FNOS',
    status: 'REGD',
    registeredAt: '2015-09-01',
  });
  const book = sandboxBook(4);
  const registration = book.lodge('402', '2015-09-01');
  book.lodge('388', '2023-05-30', { qualifier: 'FR2022', pageCount: 44 });
  const wellington = overseasAddress('12 LAMBTON QUAY', 'WELLINGTON', 'NEW ZEALAND');
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('TAMIHANA', 'ARIHI'), {
        appointedAt: '2015-09-01',
        address: overseasAddress('40 ORIENTAL PARADE', 'WELLINGTON', 'NEW ZEALAND'),
        source: registration,
      }),
      officeholder('AG', organisationParty(agent), {
        appointedAt: '2015-09-01',
        address: sydneyOffice,
        source: registration,
      }),
      officeholder('DR', person('MACKENZIE', 'FIONA JANE'), {
        appointedAt: '2015-09-01',
        address: overseasAddress('7 QUEEN STREET', 'AUCKLAND', 'NEW ZEALAND'),
        source: registration,
      }),
    ],
    addresses: [
      addressRecord(
        'RP',
        '2015-09-01',
        null,
        { ...sydneyOffice, careOf: 'SOUTHERN CROSS HOLDINGS LIMITED' },
        registration,
      ),
      addressRecord('RO', '2015-09-01', null, wellington, registration),
    ],
    documents: book.documents,
  });
}

function registeredBody(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.registeredBody,
    name: 'RIVERINA GROWERS ASSOCIATION INCORPORATED',
    type: 'RACN',
    status: 'REGD',
    registeredAt: '1998-04-01',
  });
  const book = sandboxBook(5);
  const registration = book.lodge('201', '1998-04-01');
  const office = australianAddress('55 BAYLIS STREET', 'WAGGA WAGGA', 'NSW', '2650');
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('MORRISON', 'HEATHER'), {
        appointedAt: '1998-04-01',
        address: office,
        source: registration,
      }),
      officeholder('SR', person('BAILEY', 'TOM'), {
        appointedAt: '1998-04-01',
        address: office,
        source: registration,
      }),
    ],
    addresses: [
      addressRecord('RP', '1998-04-01', null, office, registration),
      addressRecord(
        'PA',
        '1998-04-01',
        null,
        australianAddress('2 HAMMOND AVENUE', 'WAGGA WAGGA', 'NSW', '2650'),
        registration,
      ),
    ],
    documents: book.documents,
  });
}

function scheme(responsibleEntity: RegistryCompany, formerEntity: RegistryCompany): CompanyRecord {
  const company = organisation({
    number: SANDBOX.scheme,
    name: 'HARBOURSIDE MORTGAGE AND PROPERTY FUND',
    type: 'MISM',
    class: 'MORT',
    status: 'REGD',
    registeredAt: '2005-03-01',
    schemeCategories: ['MTGE', 'REAL'],
  });
  const book = sandboxBook(6);
  const registration = book.lodge('5100', '2005-03-01');
  const change = book.lodge('484', '2012-05-03', { subForms: [SUBFORM_OFFICEHOLDER] });
  return companyRecord({
    company,
    officeholders: [
      officeholder('CA', person('YOUNG', 'DAVID ALAN'), { appointedAt: '2005-03-01', source: registration }),
      officeholder('RN', organisationParty(formerEntity), {
        appointedAt: '2005-03-01',
        ceasedAt: '2012-04-30',
        source: change,
      }),
      officeholder('RN', organisationParty(responsibleEntity), { appointedAt: '2012-05-01', source: change }),
    ],
    addresses: [addressRecord('RG', '2012-05-01', null, sydneyOffice, change)],
    documents: book.documents,
  });
}

function trust(trustee: RegistryCompany): CompanyRecord {
  const company = organisation({
    number: SANDBOX.trust,
    name: 'WATTLEBIRD FAMILY TRUST',
    type: 'TRST',
    class: 'EQUT',
    status: 'APPR',
    registeredAt: '2008-02-18',
  });
  const book = sandboxBook(7);
  const registration = book.lodge('902', '2008-02-18');
  return companyRecord({
    company,
    officeholders: [
      officeholder('TR', organisationParty(trustee), { appointedAt: '2008-02-18', source: registration }),
    ],
    addresses: [addressRecord('RG', '2008-02-18', null, sydneyOffice, registration)],
    documents: book.documents,
  });
}

function association(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.association,
    name: 'TAMWORTH BUSH POETS ASSOCIATION INCORPORATED',
    type: 'ASSN',
    status: 'REGD',
    registeredAt: '1994-01-26',
    registeredCharity: true,
  });
  const book = sandboxBook(8);
  const registration = book.lodge('902', '1994-01-26', { imaged: false });
  // The charity director of the people cases (people-data.ts): a ceased director, now secretary.
  const eleanor = person('MACKENZIE-REID', 'ELEANOR GRACE', ['1962-08-19', 'ARMIDALE', 'NSW']);
  return companyRecord({
    company,
    officeholders: [
      officeholder('SR', eleanor, { appointedAt: '2016-07-01' }),
      officeholder('DR', eleanor, { appointedAt: '2004-03-01', ceasedAt: '2016-06-30' }),
    ],
    addresses: [
      addressRecord(
        'RG',
        '1994-01-26',
        null,
        australianAddress('470 PEEL STREET', 'TAMWORTH', 'NSW', '2340'),
        registration,
      ),
    ],
    documents: book.documents,
  });
}

function externalAdministration(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.externalAdministration,
    name: 'COASTAL BUILDERS PTY LTD',
    type: 'APTY',
    status: 'EXAD',
    registeredAt: '2011-02-01',
  });
  const book = sandboxBook(9);
  const registration = book.lodge('201', '2011-02-01');
  const administration = book.lodge('505', '2023-12-05', { effectiveAt: '2023-12-04' });
  const deed = book.lodge('505', '2024-03-04', { effectiveAt: '2024-03-01' });
  const insolvency = australianAddress('200 ADELAIDE STREET', 'BRISBANE', 'QLD', '4000', {
    line1: 'LEVEL 8',
  });
  const administrator = person('KOWALSKI', 'ANNA MARIA');
  const appointees = [
    officeholder('AD', administrator, { appointedAt: '2024-03-01', address: insolvency, source: deed }),
    officeholder('AC', administrator, {
      appointedAt: '2023-12-04',
      ceasedAt: '2024-03-01',
      address: insolvency,
      source: administration,
    }),
  ];
  const home = australianAddress('17 OCEAN PARADE', 'COOLANGATTA', 'QLD', '4225');
  return companyRecord({
    company,
    officeholders: [
      ...appointees,
      officeholder('DR', person('WEBB', 'GARY'), {
        appointedAt: '2011-02-01',
        address: home,
        source: registration,
      }),
      officeholder('SR', person('WEBB', 'LISA'), {
        appointedAt: '2011-02-01',
        address: home,
        source: registration,
      }),
    ],
    addresses: [
      addressRecord(
        'RG',
        '2011-02-01',
        null,
        australianAddress('3 BEACH ROAD', 'TWEED HEADS', 'NSW', '2485'),
        registration,
      ),
    ],
    documents: book.documents,
    externalAdministration: { appointees, documents: [administration, deed] },
  });
}

function deregistered(parent: RegistryCompany): CompanyRecord {
  const company = organisation({
    number: SANDBOX.deregistered,
    name: 'OLD MILL BAKERY PTY LTD',
    type: 'APTY',
    status: 'DRGD',
    registeredAt: '1999-09-09',
    deregistration: { date: '2021-03-15', reason: 'S601AA' },
  });
  const book = sandboxBook(10);
  const registration = book.lodge('201', '1999-09-09');
  const application = book.lodge('6010', '2020-12-14');
  const bakery = australianAddress('1 MILL LANE', 'BERRY', 'NSW', '2535');
  return companyRecord({
    company,
    officeholders: [
      officeholder('DA', organisationParty(parent), { appointedAt: '2020-12-14', source: application }),
      officeholder('UH', organisationParty(parent), {
        appointedAt: '2006-07-01',
        ceasedAt: '2020-12-31',
        source: application,
      }),
      officeholder('DR', person('BAKER', 'SUSAN'), {
        appointedAt: '1999-09-09',
        address: bakery,
        source: registration,
      }),
    ],
    addresses: [addressRecord('RG', '1999-09-09', null, bakery, registration)],
    documents: book.documents,
  });
}

function deregisteredUnknownReason(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.deregisteredUnknownReason,
    name: 'PHANTOM VENTURES PTY LTD',
    type: 'APTY',
    status: 'DRGD',
    registeredAt: '2002-10-31',
    deregistration: { date: '2019-08-02', reason: 'S999' },
  });
  const book = sandboxBook(11);
  const registration = book.lodge('201', '2002-10-31');
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('GRAY', 'OLIVER'), { appointedAt: '2002-10-31', source: registration }),
    ],
    addresses: [
      addressRecord(
        'RG',
        '2002-10-31',
        null,
        australianAddress('13 ELM STREET', 'BALLARAT', 'VIC', '3350'),
        registration,
      ),
    ],
    documents: book.documents,
  });
}

function strikeOff(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.strikeOff,
    name: 'THE SOUTHERN CROSS HOTEL PTY LTD',
    type: 'APTY',
    status: 'SOFF',
    registeredAt: '2005-06-06',
  });
  const book = sandboxBook(12);
  const registration = book.lodge('201', '2005-06-06');
  const hotel = australianAddress('131 SPENCER STREET', 'MELBOURNE', 'VIC', '3000');
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('COSTA', 'MARIO'), {
        appointedAt: '2005-06-06',
        address: hotel,
        source: registration,
      }),
    ],
    addresses: [addressRecord('RG', '2005-06-06', null, hotel, registration)],
    documents: book.documents,
  });
}

function preAsicAddresses(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.preAsicAddresses,
    name: 'CARRINGTON & SONS PTY LIMITED',
    type: 'APTY',
    status: 'REGD',
    registeredAt: '1968-05-02',
    abn: null,
  });
  const book = sandboxBook(13);
  const registration = book.lodge('201', '1968-05-02', { imaged: false, pageCount: 14 });
  const moved = book.lodge('902', '1988-11-01', { imaged: false });
  book.lodge('484', '2005-08-22', { subForms: [SUBFORM_OFFICEHOLDER] });
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('CARRINGTON', 'GEOFFREY WILLIAM', ['1940-12-01', 'ARMIDALE', 'NSW']), {
        appointedAt: '1968-05-02',
        address: australianAddress('GLENROCK STATION NEW ENGLAND HIGHWAY', 'TAMWORTH', 'NSW', null),
        source: registration,
      }),
    ],
    addresses: [
      addressRecord(
        'RG',
        '1968-05-02',
        '1988-10-31',
        australianAddress('GROUND FLOOR BANK OF NSW CHAMBERS 27 FITZROY STREET', 'TAMWORTH', 'NSW', null),
        registration,
      ),
      addressRecord(
        'RG',
        '1988-11-01',
        null,
        australianAddress('2ND FLOOR 14 PEEL STREET', 'TAMWORTH', 'NSW', null, {
          careOf: 'HARGRAVE & CO ACCOUNTANTS',
        }),
        moved,
      ),
    ],
    documents: book.documents,
  });
}

function satisfiedCharges(bankCompany: RegistryCompany, parent: RegistryCompany): CompanyRecord {
  const company = organisation({
    number: SANDBOX.satisfiedCharges,
    name: 'IRONBARK ENGINEERING PTY LTD',
    type: 'APTY',
    status: 'REGD',
    registeredAt: '1986-03-10',
  });
  const book = sandboxBook(14);
  const registration = book.lodge('201', '1986-03-10', { imaged: false });
  const lender = organisationParty(bankCompany);
  // Listed newest first here; the registry orders charges chronologically.
  const deleted = charge(company, {
    chargeNumber: SANDBOX.charges.deleted,
    status: 'DELT',
    type: 'X',
    registeredAt: '2010-02-03T14:05:00Z',
    createdAt: '2010-01-28',
    satisfiedAt: null,
    chargees: [lender],
    documents: [book.lodgeForCharge('309', '2010-02-03')],
  });
  const joint = charge(company, {
    chargeNumber: SANDBOX.charges.jointChargee,
    status: 'SATF',
    type: 'B',
    registeredAt: '2004-08-17T10:32:11Z',
    createdAt: '2004-08-10',
    expiresAt: '2014-08-10',
    satisfiedAt: '2015-11-30',
    chargees: [person('IRONS', 'MARGARET ANNE'), person('IRONS', 'PETER JAMES')],
    documents: [
      book.lodgeForCharge('309', '2004-08-17', { pageCount: 5 }),
      book.lodgeForCharge('350', '2004-08-20'),
      book.lodgeForCharge('312', '2015-12-04'),
    ],
  });
  const migrated = charge(company, {
    chargeNumber: SANDBOX.charges.migrated,
    status: 'SATF',
    type: 'F',
    registeredAt: '1989-06-01T00:00:00Z',
    createdAt: '1989-05-22',
    satisfiedAt: '2003-02-14',
    preAsicChargeNumber: '00045678',
    chargees: [lender],
    documents: [
      book.lodgeForCharge('309', '1989-06-01', { imaged: false }),
      book.lodgeForCharge('350', '1989-06-05', { imaged: false }),
      book.lodgeForCharge('312', '2003-02-20'),
    ],
  });
  const workshop = australianAddress('4 FOUNDRY ROAD', 'NEWCASTLE', 'NSW', '2300');
  return companyRecord({
    company,
    officeholders: [
      officeholder('UH', organisationParty(parent), { appointedAt: '2001-01-01', ceasedAt: '2012-06-30' }),
      officeholder('DR', person('IRONS', 'PETER JAMES'), {
        appointedAt: '1986-03-10',
        address: workshop,
        source: registration,
      }),
    ],
    addresses: [addressRecord('RG', '1986-03-10', null, workshop, registration)],
    documents: book.documents,
    charges: [deleted, joint, migrated],
  });
}

function smallChargesExtract(bankCompany: RegistryCompany): CompanyRecord {
  const company = organisation({
    number: SANDBOX.smallChargesExtract,
    name: 'SOUTHERN STAR CROSSINGS PTY LTD',
    type: 'APTY',
    status: 'REGD',
    registeredAt: '2014-11-20',
  });
  const book = sandboxBook(15);
  const registration = book.lodge('201', '2014-11-20');
  const wharf = australianAddress('2 WHARF STREET', 'STRAHAN', 'TAS', '7468');
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('FLYNN', 'ERROL'), {
        appointedAt: '2014-11-20',
        address: wharf,
        source: registration,
      }),
    ],
    addresses: [addressRecord('RG', '2014-11-20', null, wharf, registration)],
    documents: book.documents,
    charges: [
      charge(company, {
        chargeNumber: SANDBOX.charges.small,
        status: 'SATF',
        type: 'F',
        registeredAt: '2016-04-12T09:15:42Z',
        createdAt: '2016-04-08',
        satisfiedAt: '2021-09-01',
        chargees: [organisationParty(bankCompany)],
        documents: [
          book.lodgeForCharge('309', '2016-04-12', { pageCount: 3 }),
          book.lodgeForCharge('312', '2021-09-06', { pageCount: 2 }),
        ],
      }),
    ],
  });
}

function hugeChargesExtract(bankCompany: RegistryCompany): CompanyRecord {
  const company = organisation({
    number: SANDBOX.hugeChargesExtract,
    name: 'PINNACLE RESOURCES LIMITED',
    type: 'APUB',
    status: 'REGD',
    registeredAt: '1993-07-19',
  });
  const book = sandboxBook(16);
  const registration = book.lodge('201', '1993-07-19');
  const charges: RegistryCharge[] = [];
  for (let n = 1; n <= 30; n++) {
    const created = addDays('1994-01-10', n * 150);
    const satisfied = addDays(created, 1500);
    charges.push(
      charge(company, {
        chargeNumber: String(9901600 + n),
        status: 'SATF',
        type: n % 3 === 0 ? 'B' : 'F',
        registeredAt: `${addDays(created, 3)}T1${n % 10}:00:00Z`,
        createdAt: created,
        satisfiedAt: satisfied,
        chargees: [organisationParty(bankCompany)],
        documents: [
          book.lodgeForCharge('309', addDays(created, 3), { pageCount: 12 }),
          book.lodgeForCharge('350', addDays(created, 5), { pageCount: 4 }),
          book.lodgeForCharge('312', addDays(satisfied, 4), { pageCount: 3 }),
        ],
      }),
    );
  }
  const mine = australianAddress('1 PIT ROAD', 'KALGOORLIE', 'WA', '6430');
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('STONE', 'ROSALIND'), {
        appointedAt: '1993-07-19',
        address: mine,
        source: registration,
      }),
    ],
    addresses: [addressRecord('RG', '1993-07-19', null, mine, registration)],
    documents: book.documents,
    charges,
  });
}

function unknownCodes(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.unknownCodes,
    name: 'ZENITH NOVELTY IMPORTS PTY LTD',
    type: 'APTY',
    subClass: 'QQQQ',
    status: 'REGD',
    registeredAt: '2017-03-17',
  });
  const book = sandboxBook(17);
  const registration = book.lodge('201', '2017-03-17');
  const odd = book.lodge('9ZZ', '2022-02-22', { subForms: [['9ZZA', '9ZZA']] });
  const shop = australianAddress('88 RUNDLE MALL', 'ADELAIDE', 'SA', '5000');
  return companyRecord({
    company,
    officeholders: [
      officeholder('ZX', person('QUINN', 'ZARA'), { appointedAt: '2022-02-22', address: shop, source: odd }),
      officeholder('DR', person('QUINN', 'ZARA'), {
        appointedAt: '2017-03-17',
        address: shop,
        source: registration,
      }),
    ],
    addresses: [addressRecord('RG', '2017-03-17', null, shop, registration)],
    documents: book.documents,
  });
}

/** A public company limited by guarantee and a registered charity. */
function charity(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.charity,
    name: 'GREAT DIVIDE RURAL HEALTH FOUNDATION LIMITED',
    type: 'APUB',
    class: 'LMGT',
    subClass: 'ULSN',
    status: 'REGD',
    registeredAt: '2001-05-14',
    registeredCharity: true,
  });
  const book = sandboxBook(18);
  const registration = book.lodge('201', '2001-05-14');
  const board = book.lodge('484', '2015-11-04', { subForms: [SUBFORM_OFFICEHOLDER] });
  book.lodge('388', '2024-11-28', { qualifier: 'FR2024', pageCount: 38 });
  const office = australianAddress('120 FAULKNER STREET', 'ARMIDALE', 'NSW', '2350');
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('MACKENZIE-REID', 'ELEANOR GRACE', ['1962-08-19', 'ARMIDALE', 'NSW']), {
        appointedAt: '2015-11-02',
        address: australianAddress('4 DANGAR STREET', 'ARMIDALE', 'NSW', '2350'),
        source: board,
      }),
      officeholder('DR', person('OKAFOR', 'CHINEDU'), {
        appointedAt: '2001-05-14',
        address: office,
        source: registration,
      }),
      officeholder('SR', person('LINDQVIST', 'MARTA'), {
        appointedAt: '2001-05-14',
        address: office,
        source: registration,
      }),
    ],
    addresses: [addressRecord('RG', '2001-05-14', null, office, registration)],
    documents: book.documents,
  });
}

/**
 * A registered one-director company with a registered office, and its registration (form 201,
 * imaged from 1991): the base of the order cases, which add charges and documents.
 */
function ordersCompany(
  spec: Pick<RegistryCompany, 'number' | 'name' | 'type'> & { registeredAt: IsoDate },
  book: DocumentBook,
  office: RegistryAddress,
  director: RegistryParty,
): Pick<CompanyRecord, 'company' | 'officeholders' | 'addresses'> {
  const { registeredAt } = spec;
  const registration = book.lodge('201', registeredAt, { imaged: registeredAt >= '1991-01-01' });
  return {
    company: organisation({ ...spec, status: 'REGD' }),
    officeholders: [
      officeholder('DR', director, { appointedAt: registeredAt, address: office, source: registration }),
    ],
    addresses: [addressRecord('RG', registeredAt, null, office, registration)],
  };
}

function benchmarkChargesExtract(lender: RegistryParty): CompanyRecord {
  const book = sandboxBook(21);
  const parts = ordersCompany(
    {
      number: SANDBOX.benchmarkChargesExtract,
      name: 'KOOKABURRA FREIGHT PTY LTD',
      type: 'APTY',
      registeredAt: '2008-09-01',
    },
    book,
    australianAddress('12 DOCK ROAD', 'PORT ADELAIDE', 'SA', '5015'),
    person('BURGESS', 'COLIN'),
  );
  const charges = chargeSeries(parts.company, book, {
    count: 2,
    firstChargeNumber: 9900211,
    firstCreatedAt: '2013-05-06',
    everyDays: 900,
    pages: [10, 2, 3],
    chargee: lender,
  });
  return companyRecord({ ...parts, documents: book.documents, charges });
}

function mediumChargesExtract(lender: RegistryParty): CompanyRecord {
  const book = sandboxBook(22);
  const parts = ordersCompany(
    {
      number: SANDBOX.mediumChargesExtract,
      name: 'WOLLEMI TIMBER MILLS LIMITED',
      type: 'APUB',
      registeredAt: '1994-02-21',
    },
    book,
    australianAddress('7 SAWMILL ROAD', 'LITHGOW', 'NSW', '2790'),
    person('ASHWORTH', 'DELIA'),
  );
  const charges = chargeSeries(parts.company, book, {
    count: 12,
    firstChargeNumber: 9902201,
    firstCreatedAt: '1996-04-15',
    everyDays: 300,
    pages: [12, 4, 4],
    chargee: lender,
  });
  return companyRecord({ ...parts, documents: book.documents, charges });
}

function unavailableChargeImage(lender: RegistryParty): CompanyRecord {
  const book = sandboxBook(23);
  const parts = ordersCompany(
    {
      number: SANDBOX.unavailableChargeImage,
      name: 'GOLDFIELDS STAMPING PTY LTD',
      type: 'APTY',
      registeredAt: '1979-08-14',
    },
    book,
    australianAddress('3 BATTERY LANE', 'BENDIGO', 'VIC', '3550'),
    person('PRENDERGAST', 'NOEL'),
  );
  const stateOffice = book.lodgeForCharge('309', '1987-03-02', { pageCount: 3 });
  const charges = [
    charge(parts.company, {
      chargeNumber: SANDBOX.charges.unavailableImage,
      status: 'SATF',
      type: 'F',
      registeredAt: '1987-03-02T00:00:00Z',
      createdAt: '1987-02-20',
      satisfiedAt: '1996-05-31',
      preAsicChargeNumber: '00031877',
      chargees: [lender],
      documents: [stateOffice, book.lodgeForCharge('312', '1996-06-04', { pageCount: 2 })],
    }),
    charge(parts.company, {
      chargeNumber: '9900232',
      status: 'SATF',
      type: 'X',
      registeredAt: '2003-09-15T11:20:05Z',
      createdAt: '2003-09-09',
      satisfiedAt: '2014-02-28',
      chargees: [lender],
      documents: [
        book.lodgeForCharge('309', '2003-09-15', { pageCount: 2 }),
        book.lodgeForCharge('312', '2014-03-04', { pageCount: 1 }),
      ],
    }),
  ];
  return companyRecord({
    ...parts,
    documents: book.documents,
    charges,
    unavailableImages: [stateOffice.documentNumber],
  });
}

function currentCharges(lender: RegistryParty): CompanyRecord {
  const book = sandboxBook(24);
  const parts = ordersCompany(
    {
      number: SANDBOX.currentCharges,
      name: 'BRIGALOW PASTORAL PTY LTD',
      type: 'APTY',
      registeredAt: '1997-03-03',
    },
    book,
    australianAddress('1 STATION ROAD', 'ROMA', 'QLD', '4455'),
    person('MCALLISTER', 'FERGUS'),
  );
  const charges = [
    charge(parts.company, {
      chargeNumber: SANDBOX.charges.currentFirst,
      status: 'DELT',
      type: 'F',
      registeredAt: '2006-05-10T09:41:27Z',
      createdAt: '2006-05-02',
      satisfiedAt: null,
      chargees: [lender],
      documents: [
        book.lodgeForCharge('309', '2006-05-10', { pageCount: 4 }),
        book.lodgeForCharge('350', '2006-05-12', { pageCount: 2 }),
      ],
    }),
    charge(parts.company, {
      chargeNumber: SANDBOX.charges.currentSecond,
      status: 'DELT',
      type: 'X',
      registeredAt: '2011-08-22T15:02:10Z',
      createdAt: '2011-08-16',
      satisfiedAt: null,
      chargees: [lender],
      documents: [book.lodgeForCharge('309', '2011-08-22', { pageCount: 3 })],
    }),
  ];
  return companyRecord({ ...parts, documents: book.documents, charges });
}

function imageOrders(): CompanyRecord {
  const book = sandboxBook(25);
  const parts = ordersCompany(
    {
      number: SANDBOX.imageOrders,
      name: 'LYREBIRD ARCHIVES PTY LTD',
      type: 'APTY',
      registeredAt: '1984-02-13',
    },
    book,
    australianAddress('40 MOUNT STREET', 'KATOOMBA', 'NSW', '2780'),
    person('FAIRBAIRN', 'HELENA'),
  );
  const stateOffice = book.lodge('484', '1990-06-12', { subForms: [SUBFORM_ADDRESS] });
  book.lodge('902', '2021-08-30', { pageCount: 6 });
  book.lodge('388', '2023-10-27', { qualifier: 'FR2023', pageCount: 64, xbrl: true });
  return companyRecord({
    ...parts,
    documents: book.documents,
    unavailableImages: [stateOffice.documentNumber],
  });
}

/** A business name: no officeholders; its documents have no organisation or person context. */
function businessName(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.businessName,
    name: 'HARBOUR LIGHTS CATERING',
    type: 'BUSN',
    status: 'REGD',
    registeredAt: '2009-03-16',
  });
  const book = sandboxBook(26);
  const registration = book.lodge('BN01', '2009-03-16', { pageCount: 2 });
  book.lodge('BN03', '2012-03-16', { pageCount: 1 });
  return companyRecord({
    company,
    addresses: [
      addressRecord(
        'PA',
        '2009-03-16',
        null,
        australianAddress('2 CIRCULAR QUAY WEST', 'THE ROCKS', 'NSW', '2000'),
        registration,
      ),
    ],
    documents: book.documents,
  });
}

const FAMILY_NAMES = [
  'ANDERSON',
  'BROWN',
  'CHEN',
  'DAVIES',
  'EVANS',
  'FRASER',
  'GARCIA',
  'HUGHES',
  'IVANOV',
  'JONES',
];
const GIVEN_NAMES = [
  'ALICE',
  'BEN',
  'CLAIRE',
  'DANIEL',
  'EMMA',
  'FELIX',
  'GRACE',
  'HENRY',
  'ISLA',
  'JACK',
  'KATE',
];
const LARGE_ROLES = ['DR', 'DR', 'SR', 'DR', 'AA', 'LD', 'DR', 'EO'];
const LARGE_FORMS = ['484', '484', '2205', '603', '604', '370', '902', '388', '484', '480'];

/** 1,000 office holders and 2,000 documents, made by loops from fixed lists. */
function largeCompany(): CompanyRecord {
  const company = organisation({
    number: SANDBOX.largeCompany,
    name: 'MERIDIAN NATIONAL HOLDINGS LIMITED',
    type: 'APUB',
    subClass: 'LIST',
    status: 'REGD',
    registeredAt: '1962-04-16',
    formerNames: [{ name: 'SOUTHERN CROSS MINING N.L.', from: '1962-04-16', to: '1987-06-30' }],
  });
  const book = sandboxBook(20);
  for (let i = 0; i < 2000; i++) {
    const formCode = LARGE_FORMS[i % LARGE_FORMS.length] ?? '484';
    const receivedAt = addDays('1985-01-07', i * 6);
    const year = receivedAt.slice(0, 4);
    const qualifier = formCode === '388' ? `FR${year}` : formCode === '480' ? `AR${year}` : undefined;
    book.lodge(formCode, receivedAt, {
      ...(qualifier ? { qualifier } : {}),
      pageCount: formCode === '388' ? 60 + (i % 40) : 1 + (i % 5),
      imaged: receivedAt >= '1991-01-01',
      xbrl: formCode === '388' && receivedAt >= '2012-01-01',
    });
  }
  const officeholders: RegistryOfficeholder[] = [];
  for (let i = 0; i < 1000; i++) {
    const status = i < 12 ? 'C' : i < 14 ? 'F' : 'E';
    const appointedAt = status === 'F' ? addDays('2030-01-01', i) : addDays('1962-04-16', i * 17);
    const source = book.documents[(i * 2) % book.documents.length];
    officeholders.push(
      officeholder(
        LARGE_ROLES[i % LARGE_ROLES.length] ?? 'DR',
        person(
          FAMILY_NAMES[i % FAMILY_NAMES.length] ?? 'JONES',
          `${GIVEN_NAMES[i % GIVEN_NAMES.length]} ${GIVEN_NAMES[(i * 7) % GIVEN_NAMES.length]}`,
        ),
        {
          status,
          appointedAt,
          ceasedAt: status === 'E' ? addDays(appointedAt, 400 + ((i * 37) % 3000)) : null,
          address: australianAddress(`${1 + (i % 200)} COLLINS STREET`, 'MELBOURNE', 'VIC', '3000'),
          source: source ?? null,
        },
      ),
    );
  }
  const registration = book.documents[0];
  if (!registration) throw new Error('largeCompany: no documents');
  return companyRecord({
    company,
    officeholders,
    addresses: [
      addressRecord(
        'RG',
        '1962-04-16',
        null,
        australianAddress('600 BOURKE STREET', 'MELBOURNE', 'VIC', '3000'),
        registration,
      ),
    ],
    shareClasses: [shareClass('ORD', 'ORDINARY SHARES', 'C', 1_250_000_000, '3100000000.00', registration)],
    documents: book.documents,
  });
}

/** ACME WIDGETS 001 PTY LTD to ACME WIDGETS 120 PTY LTD: one search selects all 120. */
const acmeCompanies = (): CompanyRecord[] =>
  widgetCompanies({ count: SANDBOX.acmeCompanies, name: 'ACME WIDGETS', first: 99001000, firstBook: 100 });

/** WIDGETS WORLD 001 PTY LTD to 060: with the ACME ones, the offline search WIDGETS finds 180. */
const widgetsWorldCompanies = (): CompanyRecord[] =>
  widgetCompanies({
    count: SANDBOX.widgetsWorldCompanies,
    name: 'WIDGETS WORLD',
    first: 99002000,
    firstBook: 300,
  });

/** `{name} 001 PTY LTD` onwards, numbered from `first` + 1 (with the check digit), books from `firstBook` + 1. */
function widgetCompanies(spec: {
  count: number;
  name: string;
  first: number;
  firstBook: number;
}): CompanyRecord[] {
  const records: CompanyRecord[] = [];
  for (let i = 1; i <= spec.count; i++) {
    const registeredAt = addDays('2019-01-07', i);
    const company = organisation({
      number: acnWithCheckDigit(String(spec.first + i)),
      name: `${spec.name} ${String(i).padStart(3, '0')} PTY LTD`,
      type: 'APTY',
      status: 'REGD',
      registeredAt,
    });
    const book = sandboxBook(spec.firstBook + i);
    const registration = book.lodge('201', registeredAt);
    const office = australianAddress(`${i} FACTORY LANE`, 'GEELONG', 'VIC', '3220');
    records.push(
      companyRecord({
        company,
        officeholders: [
          officeholder('DR', person('COYOTE', 'WILE E'), {
            appointedAt: registeredAt,
            address: office,
            source: registration,
          }),
        ],
        addresses: [addressRecord('RG', registeredAt, null, office, registration)],
        documents: book.documents,
      }),
    );
  }
  return records;
}

function publicCompany(related: {
  foreign: RegistryCompany;
  proprietary: RegistryCompany;
  charges: RegistryCompany;
  scheme: RegistryCompany;
  trust: RegistryCompany;
  deregistered: RegistryCompany;
}): CompanyRecord {
  const company = organisation({
    number: SANDBOX.public,
    name: 'SOUTHERN CROSS HOLDINGS LIMITED',
    type: 'APUB',
    subClass: 'LIST',
    status: 'REGD',
    registeredAt: '1995-08-14',
    formerNames: [{ name: 'SOUTHERN CROSS PASTORAL COMPANY LIMITED', from: '1995-08-14', to: '2003-06-30' }],
  });
  const book = sandboxBook(2);
  const registration = book.lodge('201', '1995-08-14');
  const renamed = book.lodge('205', '2003-07-01');
  const board = book.lodge('484', '2019-04-01', { subForms: [SUBFORM_OFFICEHOLDER] });
  book.lodge('388', '2024-09-27', { qualifier: 'FR2024', pageCount: 96, xbrl: true });
  return companyRecord({
    company,
    officeholders: [
      officeholder('DR', person('ARCHER', 'LOUISE', ['1966-05-05', 'ADELAIDE', 'SA']), {
        appointedAt: '2019-04-01',
        address: australianAddress('3 WENTWORTH STREET', 'POINT PIPER', 'NSW', '2027'),
        source: board,
      }),
      officeholder('DR', person('FITZGERALD', 'HUGH'), {
        appointedAt: '1995-08-14',
        address: australianAddress('12 BAY STREET', 'DOUBLE BAY', 'NSW', '2028'),
        source: registration,
      }),
      officeholder('SR', person('TRAN', 'MINH'), { appointedAt: '2003-07-01', source: renamed }),
    ],
    addresses: [
      addressRecord(
        'CC',
        '2003-07-01',
        null,
        australianAddress('GPO BOX 1', 'SYDNEY', 'NSW', '2001'),
        renamed,
      ),
      addressRecord('RG', '2003-07-01', null, sydneyOffice, renamed),
      addressRecord(
        'RG',
        '1995-08-14',
        '2003-06-30',
        australianAddress('10 PASTORAL ROAD', 'GOULBURN', 'NSW', '2580'),
        registration,
      ),
    ],
    documents: book.documents,
    // Out of order on purpose: the registry lists AG, UH (current, then newest ceased), TR, RN.
    relationships: [
      relationship('RN', related.scheme, '2012-05-01'),
      relationship('UH', related.charges, '2001-01-01', '2012-06-30'),
      relationship('TR', related.trust, '2008-02-18'),
      relationship('UH', related.deregistered, '2006-07-01', '2020-12-31'),
      relationship('AG', related.foreign, '2015-09-01'),
      relationship('UH', related.proprietary, '2016-03-01'),
    ],
  });
}

function buildSandboxRecordList(): CompanyRecord[] {
  // The public company's number, name and ABN are fixed, so the others can refer to it before
  // its record (which lists their companies) is built.
  const holding = organisation({
    number: SANDBOX.public,
    name: 'SOUTHERN CROSS HOLDINGS LIMITED',
    type: 'APUB',
    status: 'REGD',
    registeredAt: '1995-08-14',
  });
  const bankRecord = bank();
  const proprietaryRecord = proprietary(holding);
  const foreignRecord = foreignCompany(holding);
  const schemeRecord = scheme(holding, bankRecord.company);
  const trustRecord = trust(holding);
  const deregisteredRecord = deregistered(holding);
  const chargesRecord = satisfiedCharges(bankRecord.company, holding);
  const publicRecord = publicCompany({
    foreign: foreignRecord.company,
    proprietary: proprietaryRecord.company,
    charges: chargesRecord.company,
    scheme: schemeRecord.company,
    trust: trustRecord.company,
    deregistered: deregisteredRecord.company,
  });
  bankRecord.relationships.push(relationship('RN', schemeRecord.company, '2005-03-01', '2012-04-30'));
  return [
    proprietaryRecord,
    publicRecord,
    bankRecord,
    foreignRecord,
    registeredBody(),
    schemeRecord,
    trustRecord,
    association(),
    externalAdministration(),
    deregisteredRecord,
    deregisteredUnknownReason(),
    strikeOff(),
    preAsicAddresses(),
    chargesRecord,
    smallChargesExtract(bankRecord.company),
    hugeChargesExtract(bankRecord.company),
    unknownCodes(),
    charity(),
    largeCompany(),
    ...acmeCompanies(),
    benchmarkChargesExtract(organisationParty(bankRecord.company)),
    mediumChargesExtract(organisationParty(bankRecord.company)),
    unavailableChargeImage(organisationParty(bankRecord.company)),
    currentCharges(organisationParty(bankRecord.company)),
    imageOrders(),
    businessName(),
    ...widgetsWorldCompanies(),
  ];
}

let records: CompanyRecord[] | undefined;

/**
 * The sandbox organisations, built on first call and shared afterwards (treat as read-only). The
 * sandbox dataset (organisations and people) is `sandboxDataset()` in sandbox.ts.
 */
export function sandboxRecords(): readonly CompanyRecord[] {
  records ??= buildSandboxRecordList();
  return records;
}

/** Fresh, unshared organisations: for tests of determinism. */
export const buildSandboxRecords = (): CompanyRecord[] => buildSandboxRecordList();
