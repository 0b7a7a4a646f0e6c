/**
 * The sandbox catalogue: what each documented sandbox organisation and person shows, in the order
 * docs/sandbox.md lists them. `npm run docs:sandbox` (scripts/sandbox-docs.ts) renders the page's
 * organisation and people tables from it, taking the numbers, ABNs and names from the sandbox
 * dataset and the case names from `SANDBOX` and `SANDBOX_PEOPLE`: edit the text here, and the
 * records in sandbox-data.ts and people-data.ts, not the tables.
 */

import { SANDBOX } from './companies.ts';
import type { SANDBOX_PEOPLE } from './people.ts';

/** The cases of `SANDBOX` that name one organisation. */
export type OrganisationCaseName = {
  [K in keyof typeof SANDBOX]: (typeof SANDBOX)[K] extends string ? K : never;
}[keyof typeof SANDBOX];

export type OrganisationEntry =
  /** One organisation: the first case naming it (the others naming it are listed with it). */
  | { case: OrganisationCaseName; shows: string; abn?: string }
  /** A run of organisations numbered from the eight digits `first` (each with its check digit). */
  | { run: { first: number; count: number }; shows: string };

/** The people cases of `SANDBOX_PEOPLE`. */
export type PersonCaseName = Exclude<keyof typeof SANDBOX_PEOPLE, 'search'>;

/** A person case, or several people (one text each, in the order of their identifiers). */
export interface PersonEntry {
  case: PersonCaseName;
  shows: string | readonly string[];
}

export const SANDBOX_ORGANISATION_CATALOGUE: readonly OrganisationEntry[] = [
  {
    case: 'proprietary',
    shows:
      'APTY, REGD. Current (C), future (F) and ceased (E) office holders: directors, secretaries, an alternate director, an auditor firm, and an ultimate holding company. Share classes ORD and PREF, plus a ceased class A, with members. Annual returns (`AR…`) and financial reports (`FR…`) with XBRL. A 484 with sub-forms 484A1, 484E and 484G. A current CC contact address and ceased RG and PA addresses. One former name. No charges: a historical extract has `charges: []`.',
  },
  {
    case: 'public',
    shows:
      'APUB, listed. Holds six roles in other organisations: AG, UH (current), UH (ceased 2020), UH (ceased 2012), TR and RN, in that order.',
  },
  { case: 'bank', shows: 'APUB. The organisation chargee of the charges below.' },
  {
    case: 'foreignCompany',
    shows:
      'FNOS with an ARBN. RP address in Sydney and RO address in Wellington, NEW ZEALAND (state and postcode null). Local agent (AG) is the public company. Relational extract gives `no_relational_data`.',
  },
  { case: 'registeredBody', shows: 'RACN with an ARBN.' },
  {
    case: 'scheme',
    shows:
      'MISM with an ARSN (number type ARSN), scheme categories MTGE and REAL, and a current and a ceased responsible entity (RN). Company extracts work. A relational extract gives `extract_unavailable_for_type` (CR51).',
  },
  {
    case: 'trust',
    shows:
      'TRST, number type NUMBER, status APPR. Every extract gives `extract_unavailable_for_type` (CE51 or CR51).',
  },
  {
    case: 'association',
    shows:
      'ASSN, number type NUMBER, registered charity. Every extract gives `extract_unavailable_for_type`. Secretary (and former director) ELEANOR GRACE MACKENZIE-REID.',
  },
  {
    case: 'externalAdministration',
    shows:
      'EXAD. Its extracts carry an external administration section: an administrator (AC, ceased) and then a deed administrator (AD, current), each notified on form 505. A current extract shows only the AD.',
  },
  {
    case: 'deregistered',
    shows: 'DRGD, deregistration `{date: 2021-03-15, reason: S601AA}` after form 6010.',
  },
  {
    case: 'deregisteredUnknownReason',
    shows:
      'DRGD with reason `S999`, which is not in the table. It is shown as code `S999` with label `S999`.',
  },
  { case: 'strikeOff', shows: 'SOFF. Relational extract gives `no_relational_data` (CR02).' },
  {
    case: 'preAsicAddresses',
    abn: 'none recorded',
    shows:
      'Registered in 1968. Its converted pre-1991 addresses hold several components in `street` and have a null postcode. Its documents from before 1991 are not imaged. No ABN is recorded (see the ABN cases).',
  },
  {
    case: 'satisfiedCharges',
    shows: 'Three charges (see below). The charges extract has 23 pages, so it is `large`.',
  },
  {
    case: 'smallChargesExtract',
    shows: 'One satisfied charge. The charges extract has 5 pages, so it is `small`.',
  },
  {
    case: 'hugeChargesExtract',
    shows:
      '30 satisfied charges. The charges extract has 570 pages: over 500, so it must be posted (web and email give `document_too_large_for_delivery`).',
  },
  {
    case: 'unknownCodes',
    shows:
      'Codes that the tables do not know: sub-class `QQQQ`, office-holder role `ZX` (listed after every known role) and form `9ZZ`. Each is shown with label equal to its code.',
  },
  {
    case: 'charity',
    shows:
      'APUB limited by guarantee (class LMGT, sub-class ULSN), registered charity. Its director ELEANOR GRACE MACKENZIE-REID is the people case `charityDirector`.',
  },
  {
    case: 'largeCompany',
    shows:
      '1,000 office holders (12 current, 2 future, 986 ceased) and 2,000 documents. Use it for pagination. Former name SOUTHERN CROSS MINING N.L.',
  },
  {
    run: { first: 99_001_001, count: SANDBOX.acmeCompanies },
    shows:
      '120 small companies for the search that matches too many names. Company `nnn` has the eight digits 99001000 + `nnn` and then its check digit: 001 is `990 010 010`, 002 is `990 010 029`, 120 is `990 011 204`. 101 to 104 (`990 011 017`, `990 011 026`, `990 011 035`, `990 011 044`) change each day on the published monitoring schedule ("Company monitoring" below); searches show them by these names.',
  },
  {
    case: 'benchmarkChargesExtract',
    shows:
      'Two satisfied charges; the charges extract has 30 pages (`large`). See [Orders and offline searches](#orders-and-offline-searches).',
  },
  {
    case: 'mediumChargesExtract',
    shows: 'APUB. 12 satisfied charges; the charges extract has 240 pages: web or post, not email.',
  },
  {
    case: 'unavailableChargeImage',
    shows:
      'Two satisfied charges, 8 pages; the 1987 notification of the state-office charge has no image that can be produced.',
  },
  {
    case: 'currentCharges',
    shows:
      'Two charges that were current when the register moved to the PPSR (DELT, not satisfied): the current charges extract, 9 pages.',
  },
  {
    case: 'imageOrders',
    shows:
      'Registered in 1984. The documents of the image order cases: a 64-page 388, a 902, a 201 that was never imaged and a 1990 484 whose image is unavailable. No charges.',
  },
  {
    case: 'businessName',
    shows:
      'BUSN (a business name), number type NUMBER. Its documents (BN01, BN03) are lodged against no organisation or person. No extract or charges product.',
  },
  {
    run: { first: 99_002_001, count: SANDBOX.widgetsWorldCompanies },
    shows:
      '60 small companies that, with the 120 ACME WIDGETS, make the offline search `widgets` find 180 names. Company `nnn` has the eight digits 99002000 + `nnn` and then its check digit.',
  },
];

export const SANDBOX_PEOPLE_CATALOGUE: readonly PersonEntry[] = [
  {
    case: 'director',
    shows:
      "Born 1975-06-01, DUBLIN, IRELAND. Former name O'BRIAIN, MICHEAL PADRAIG. 11 roles across 9 organisations: EO (ceased), DR (current, future, three ceased, two of them on the same day), SR (current and two ceased), LD (current), and a ceased Member (SH) role with a ceased shareholding. 8 documents. No notices. Use it for role order and for the `history` and `includeShareholdings` filters.",
  },
  {
    case: 'namesakes',
    shows: [
      'Born 1958-04-12. The administrator of COASTAL BUILDERS (AC ceased, AD current) and a registered liquidator (licence RQ, APPR). `same_name` notice.',
      'Born 1971-09-30. Former name NOWAK, ANNA MARIA. One current directorship. `same_name` notice.',
      'Born 1986-01-05. One ceased secretaryship. `same_name` notice.',
    ],
  },
  {
    case: 'namesakePrefix',
    shows: 'Found by the given name `ANNA`, which begins ANNABEL. No namesake, so no notice.',
  },
  {
    case: 'namesakeOtherOrder',
    shows: 'Not found by `ANNA`: the first query word must begin the first given name. No notice.',
  },
  {
    case: 'charityDirector',
    shows:
      'Current director of GREAT DIVIDE RURAL HEALTH FOUNDATION LIMITED (`990 000 185`, registered charity): one `acnc_charity` notice with that `acn`. Also the current secretary and a former director of TAMWORTH BUSH POETS ASSOCIATION (also a registered charity): neither role gives a notice.',
  },
  {
    case: 'shareholder',
    shows:
      'DR (current) and SR (ceased), plus Member (SH) roles in three APTY companies: two current, one ceased. Four shareholdings: ORD and PREF (not beneficially held) in CARRINGTON & SONS, ORD (not fully paid) in IRONBARK ENGINEERING, and a ceased ORD holding in SOUTHERN STAR CROSSINGS.',
  },
  {
    case: 'roles999',
    shows: 'Exactly 999 roles (989 office roles, 10 ceased Member roles; 5 current): the extract is sold.',
  },
  {
    case: 'roles1000',
    shows:
      "1,000 roles: `person_too_many_roles` (PE51), whatever the options. The registry's search answer carries each name's role count, so the service refuses the purchase before asking the registry for anyone.",
  },
  {
    case: 'disqualified',
    shows:
      'Licences: DD current (APPR, 2021-06-01 to 2031-05-31), DD ceased (NOAC), FR ceased (NOAC). Two ceased directorships, so a current extract has no roles.',
  },
  {
    case: 'banned',
    shows:
      'Licences: FX current (APPR), BS and BF ceased (NOAC), FR ceased (SUSP). One ceased secretaryship.',
  },
  {
    case: 'noBirthDate',
    shows:
      '`birth` is null. Roles DR and ZX (a role the tables do not know, listed after every known one) at ZENITH NOVELTY IMPORTS.',
  },
  {
    case: 'citizens',
    shows:
      '120 people whose first given name starts with J, one ceased directorship each. The first 100 are born 1950 to 1989, the last 20 from 1990.',
  },
  { case: 'unknownIdentifier', shows: 'No name record: `person_not_found` (PE03).' },
];
