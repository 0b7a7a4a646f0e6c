/**
 * Static copies of the registry's 36 code tables (spec document 1, section 2.9).
 *
 * Code sets are open (spec section 9): the registry can add codes at any time, so callers must
 * compare on `code`, never on `label`, and must not reject a record carrying a code that is missing
 * here. `labelFor` returns the code itself for anything unknown.
 *
 * Provenance of every table (spec, registry publication or best knowledge) is recorded in
 * docs/reference-data.md. Keep that document in step with any change made here.
 */

export interface CodeTableEntry {
  readonly code: string;
  readonly label: string;
  readonly registryCode: string | null;
}

export interface CodeTableDefinition {
  readonly table: string;
  readonly title: string;
  readonly entries: readonly CodeTableEntry[];
}

type Row = readonly [code: string, label: string];
type RegistryRow = readonly [code: string, label: string, registryCode: string];

/** Rows without a registry value (every table except the three below). */
function entries(rows: readonly Row[]): readonly CodeTableEntry[] {
  return Object.freeze(rows.map(([code, label]) => Object.freeze({ code, label, registryCode: null })));
}

/** Rows that carry the registry's original value (jurisdictions, controlling-jurisdictions, number-types). */
function registryEntries(rows: readonly RegistryRow[]): readonly CodeTableEntry[] {
  return Object.freeze(
    rows.map(([code, label, registryCode]) => Object.freeze({ code, label, registryCode })),
  );
}

function table(slug: string, title: string, rows: readonly CodeTableEntry[]): CodeTableDefinition {
  return Object.freeze({ table: slug, title, entries: rows });
}

const organisationTypes: readonly Row[] = [
  ['APTY', 'Australian Proprietary Company'],
  ['APUB', 'Australian Public Company'],
  ['ASSN', 'Association'],
  ['BUSN', 'Business Name'],
  ['CHAR', 'Charity'],
  ['COMP', 'Community Purpose'],
  ['COOP', 'Co-Operative Society'],
  ['FNOS', 'Foreign Company (Overseas)'],
  ['LTDP', 'Limited Partnership'],
  ['MISM', 'Managed Investment Scheme'],
  ['NONC', 'Non Company'],
  ['NRET', 'Non Registered Entity'],
  ['RACN', 'Registered Australian Body'],
  ['REBD', 'Religious Body'],
  ['RSVN', 'Name Reservation'],
  ['SOLS', 'Solicitor Corporation'],
  ['TRST', 'Trust'],
];

const organisationTypeLabel = new Map(organisationTypes);

const officeHolderRoles: readonly Row[] = [
  ['AA', 'Appointed Auditor'],
  ['AC', 'Administrator of a Company under Administration'],
  ['AD', 'Administrator under a Deed of Company Arrangement'],
  ['AG', 'Local Agent'],
  ['AQ', 'Appointed Liquidator'],
  ['BI', 'Liquidator of a Simplified Liquidation'],
  ['BM', 'Restructuring Practitioner'],
  ['BP', 'Restructuring Plan Practitioner'],
  ['CA', 'Compliance Plan Auditor'],
  ['CM', 'Official Manager (Court)'],
  ['CQ', 'Appointed Liquidator (Court Winding Up)'],
  ['CR', 'Controller'],
  ['DA', 'Deregistration Applicant'],
  ['DM', 'Deputy Official Manager'],
  ['DR', 'Director'],
  ['EO', 'Previous Executive Officer'],
  ['LD', 'Alternate Director'],
  ['MA', 'Scheme Auditor'],
  ['MC', 'Managing Controller'],
  ['MQ', 'Appointed Liquidator (Members Voluntary Winding Up)'],
  ['OM', 'Official Manager'],
  ['OQ', 'Official Liquidator'],
  ['PQ', 'Provisional Liquidator'],
  ['PT', 'Petitioner Court Action'],
  ['PW', 'Person Winding Up a Scheme'],
  ['RC', 'Receiver'],
  ['RM', 'Receiver Manager'],
  ['RN', 'Responsible Entity'],
  ['RY', 'Proposed Responsible Entity'],
  ['SB', 'Subscriber'],
  ['SM', 'Scheme Manager'],
  ['SR', 'Secretary'],
  ['TC', 'Transfer of Control'],
  ['TN', 'Temporary Responsible Entity'],
  ['TR', 'Trustee'],
  ['UH', 'Ultimate Holding Company'],
  ['VQ', 'Appointed Liquidator (Creditors Voluntary Winding Up)'],
];

/** Suspension reasons: the spec lists codes only; see docs/reference-data.md for how labels were chosen. */
const suspensionReasons: readonly Row[] = [
  ['ACTN', 'Suspension Reason ACTN'],
  ['APPL', 'Application'],
  ['BREA', 'Breach'],
  ['CEAS', 'Ceased'],
  ['CONT', 'Suspension Reason CONT'],
  ['CONV', 'Suspension Reason CONV'],
  ['DIRE', 'Suspension Reason DIRE'],
  ['EHAF', 'Suspension Reason EHAF'],
  ['EXAD', 'External Administration'],
  ['FPOD', 'Suspension Reason FPOD'],
  ['INCA', 'Incapacity'],
  ['NFAP', 'Suspension Reason NFAP'],
  ['NTRS', 'Suspension Reason NTRS'],
  ['PRVA', 'Suspension Reason PRVA'],
  ['PRVB', 'Suspension Reason PRVB'],
  ['QUAL', 'Qualifications'],
  ['STAT', 'Suspension Reason STAT'],
];

const documentListOrganisationTypeCodes = ['APTY', 'APUB', 'FNOS', 'MISM', 'NRET', 'RACN', 'TRST'] as const;

/** All 36 tables, in the order the spec's section 2.9 lists the slugs. */
export const codeTables: readonly CodeTableDefinition[] = Object.freeze([
  table('organisation-types', 'Organisation types', entries(organisationTypes)),
  table(
    'organisation-classes',
    'Organisation classes',
    entries([
      ['EQUT', 'Equity'],
      ['LMGT', 'Limited By Guarantee'],
      ['LMSG', 'Limited By Shares & Guarantee'],
      ['LMSH', 'Limited By Shares'],
      ['MORT', 'Mortgage'],
      ['NLIA', 'No Liability'],
      ['NONE', 'No Equivalent Australian Liability'],
      ['PROP', 'Property'],
      ['UNKN', 'Liability Unknown'],
      ['UNLM', 'Unlimited'],
    ]),
  ),
  table(
    'organisation-sub-classes',
    'Organisation sub-classes',
    entries([
      ['EXPN', 'Exempt Proprietary Non-Profit Company'],
      ['EXPS', 'Exempt Proprietary Superannuation Trustee Company'],
      ['EXPT', 'Exempt Proprietary Company'],
      ['FFSP', 'Foreign Financial Service Provider (Non-Registered Entity)'],
      ['FXPT', 'Foreign Company Exempt from Lodging Balance Sheet'],
      ['HUNT', 'Proprietary Home Unit Company'],
      ['LISN', 'Licensed to Omit Limited from Name'],
      ['LISS', 'Licensed under s.383 and Superannuation Trustee'],
      ['LIST', 'Listed Public Company'],
      ['LXPT', 'Licensed to Omit Ltd and Exempt from Returns'],
      ['NCCT', 'Non-Corporate Trustee (Non-Registered Entity)'],
      ['NEXN', 'Non-Exempt Proprietary Non-Profit Company'],
      ['NEXS', 'Non-Exempt Proprietary Superannuation Trustee Company'],
      ['NEXT', 'Non-Exempt Proprietary Company'],
      ['NLTD', 'Entitled to Omit Limited under s.150'],
      ['NONE', 'Unknown'],
      ['OABR', 'Other Business Register Non-Person (Non-Registered Entity)'],
      ['PNPC', 'Non-Profit Proprietary Company'],
      ['PROP', 'Proprietary Company'],
      ['PSTC', 'Superannuation Trustee Proprietary Company'],
      ['PTSH', 'Partnership (Non-Registered Entity)'],
      ['PUBF', 'Foreign Company Required to Lodge a Balance Sheet'],
      ['RACA', 'Registrable Australian Corporation - Association'],
      ['RACO', 'Registrable Australian Corporation - Non-Association'],
      ['SPEC', 'Special'],
      ['STFI', 'Small Transferring Financial Institution'],
      ['ULSN', 'Unlisted Public Non-Profit Company'],
      ['ULSS', 'Unlisted Public Non-Profit and Superannuation Trustee Company'],
      ['ULST', 'Unlisted Public Company'],
    ]),
  ),
  // Not shown in the spec. ACT..WA substantiated by the registry's lodgement table 0004; the four
  // remaining territory codes are best knowledge (docs/reference-data.md).
  table(
    'states',
    'States and territories',
    entries([
      ['AAT', 'Australian Antarctic Territory'],
      ['ACT', 'Australian Capital Territory'],
      ['CI', 'Christmas Island'],
      ['CKI', 'Cocos (Keeling) Islands'],
      ['JBT', 'Jervis Bay Territory'],
      ['NSW', 'New South Wales'],
      ['NT', 'Northern Territory'],
      ['QLD', 'Queensland'],
      ['SA', 'South Australia'],
      ['TAS', 'Tasmania'],
      ['VIC', 'Victoria'],
      ['WA', 'Western Australia'],
    ]),
  ),
  table('office-holder-roles', 'Office holder roles', entries(officeHolderRoles)),
  table(
    'record-status',
    'Record status',
    entries([
      ['C', 'Current'],
      ['E', 'Ceased/Former'],
      ['F', 'Future'],
    ]),
  ),
  table(
    'charge-types',
    'Charge types',
    entries([
      ['B', 'Both Fixed & Floating'],
      ['F', 'Floating'],
      ['X', 'Fixed'],
    ]),
  ),
  table(
    'charge-statuses',
    'Charge statuses',
    entries([
      ['DELT', 'Deleted'],
      ['SATF', 'Satisfied'],
    ]),
  ),
  table(
    'address-types',
    'Address types',
    entries([
      ['RG', 'Registered Office'],
      ['RP', 'Registered Office in Australia'],
      ['PA', 'Principal Place of Business'],
      ['RO', 'Registered Address in Place of Incorporation'],
      ['CC', 'Contact Address for Registry Use Only'],
    ]),
  ),
  // Not shown in the spec: best knowledge (national one-digit state/territory numbering).
  table(
    'jurisdictions',
    'Jurisdictions',
    registryEntries([
      ['NSW', 'New South Wales', '1'],
      ['VIC', 'Victoria', '2'],
      ['QLD', 'Queensland', '3'],
      ['SA', 'South Australia', '4'],
      ['WA', 'Western Australia', '5'],
      ['TAS', 'Tasmania', '6'],
      ['NT', 'Northern Territory', '7'],
      ['ACT', 'Australian Capital Territory', '8'],
      ['OT', 'Other Territories', '9'],
    ]),
  ),
  // Not shown in the spec. Codes and labels substantiated by a published copy of the registry's court type table.
  table(
    'court-types',
    'Court types',
    entries([
      ['F', 'Federal Court'],
      ['M', 'Family Court'],
      ['S', 'Supreme Court'],
    ]),
  ),
  table(
    'organisation-statuses',
    'Organisation statuses',
    entries([
      ['APPR', 'Approved'],
      ['ARCH', 'Business Names Archived'],
      ['ASOS', 'Association Strike-Off'],
      ['CNCL', 'Cancelled'],
      ['CONV', 'Converted'],
      ['DISS', 'Dissolved by Special Act of Parliament'],
      ['DIV3', 'Transferred Registration via Division 3'],
      ['DRGD', 'Deregistered'],
      ['EXAA', 'External Administration (Association)'],
      ['EXAD', '*Under External Administration And/Or Controller Appointed*'],
      ['EXMP', 'Exempt from Lodging Annual Statements'],
      ['LIQU', 'In Liquidation'],
      ['NOAC', 'Not Active'],
      ['NRGD', 'Not Registered'],
      ['PEND', 'Pending'],
      ['REGD', 'Registered'],
      ['REXP', 'Business Name Expired'],
      ['RMVD', 'Business Names Removed'],
      ['SOFF', 'Strike-Off Action In Progress'],
      ['WDPI', 'Winding Up - Prescribed Interest Scheme'],
      ['WDUP', 'Winding Up - Managed Investment Scheme'],
    ]),
  ),
  table(
    'information-products',
    'Information products',
    entries([
      ['CC', 'Charges Extract'],
      ['CE', 'Company Extract'],
      ['CR', 'Company Relational Extract'],
      ['DI', 'Document Images'],
      ['PN', 'Person Name Search/Extract'],
      ['RE', 'Registers'],
    ]),
  ),
  table(
    'deregistration-reasons',
    'Deregistration reasons',
    entries([
      ['ALT REGN', 'Altered Registration'],
      ['BINT', 'Bank Integration Act'],
      ['SA ACT', 'S.22 TAB (Disposal) Act 2000'],
      ['S22FS', 'S.22 Financial Sector (Transfer of Business) Act 1999'],
      ['S380', 'Section 380 - Transfer of Incorporation'],
      ['S89', 'Section 89 Companies Code - Transfer of Incorporation (See Later Record)'],
      ['S411', 'Section 411 Companies Code - Scheme of Arrangement'],
      ['S413', 'Section 413 - Scheme of Arrangement'],
      ['S459', 'Section 459 Companies Code - Winding Up'],
      ['S481', 'Section 481 - Court Winding Up'],
      ['S509', 'Section 509 - Voluntary Winding Up'],
      ['S601AA', 'Section 601AA - Voluntary Deregistration'],
      ['S601AB', 'Section 601AB - Deregistration Initiated by the Regulator'],
      ['S601AL', 'Section 601AL - Deregistration after Winding Up'],
      ['S601CC', 'Section 601CC - Cancellation of Registered Australian Body'],
      ['S601CL', 'Section 601CL - Cancellation of Foreign Company'],
      ['S601PB', 'Section 601PB - Deregistration of a Scheme'],
    ]),
  ),
  table(
    'company-licence-types',
    'Company licence types',
    entries([
      ['FB', 'Futures Broker'],
      ['FD', 'Futures Adviser'],
      ['FL', 'Financial Services Licencee'],
      ['FR', 'Financial Services Representative'],
      ['FX', 'Banned Financial Services Representative'],
      ['IA', 'Investment Adviser'],
      ['SD', 'Securities Dealer'],
    ]),
  ),
  table(
    'company-roles',
    'Company roles',
    entries([
      ['AG', 'Local Agent'],
      ['DR', 'Director'],
      ['UH', 'Ultimate Holding Company'],
      ['TM', 'Trust Management Company'],
      ['TR', 'Trustee'],
      ['RN', 'Responsible Entity'],
    ]),
  ),
  table('person-additional-roles', 'Person additional roles', entries([['SH', 'Member']])),
  table(
    'asic-fee-codes',
    'ASIC fee codes',
    entries([
      ['930A', 'Weekly Summary: New Registrations'],
      ['930B', 'Weekly Summary: Name Changes'],
      ['930C', 'Weekly Summary: Charges Register Changes'],
      ['930D', 'Weekly Summary: External Administrations'],
      ['930E', 'Weekly Summary: Licences Granted'],
      ['930F', 'Weekly Summary: Disqualified Directors'],
      ['930G', 'Weekly Summary: New Schemes'],
      ['934', 'Offline Organisation Search'],
      ['949', 'Document Image (Other)'],
      ['951', 'Document Image (Organisation)'],
      ['954', 'Document Image (Person)'],
      ['955A', 'Corporation Extract'],
      ['955B', 'Relational Extract'],
      ['955C', 'Current Charges Extract'],
      ['955E', 'Satisfied Charges Extract'],
      ['955F', 'Legacy Register Extract (F)'],
      ['955G', 'Legacy Register Extract (G)'],
      ['955H', 'Legacy Register Extract (H)'],
      ['955I', 'Legacy Register Extract (I)'],
      ['955J', 'Legacy Register Extract (J)'],
      ['955K', 'Legacy Register Extract (K)'],
      ['958', 'Personal Name Extract'],
      ['959A', 'Register Extract: Auditors'],
      ['959B', 'Register Extract: Liquidators'],
      ['959C', 'Register Extract: Official Liquidators'],
      ['959D', 'Register Extract: Disqualified Persons'],
      ['959E', 'Register Extract: Securities Industry'],
      ['959F', 'Register Extract: Futures Industry'],
      ['959G', 'Register Extract: Representatives (G)'],
      ['959H', 'Register Extract: Representatives (H)'],
      ['959I', 'Register Extract: Banned Representatives (I)'],
      ['959J', 'Register Extract: Banned Representatives (J)'],
      ['959K', 'Register Extract: Financial Journalists'],
    ]),
  ),
  table(
    'register-types',
    'Register types',
    entries([
      ['RA', 'Registered Auditors'],
      ['RQ', 'Registered Liquidators'],
      ['OQ', 'Official Liquidators'],
      ['IA', 'Investment Advisers'],
      ['SD', 'Securities Dealers'],
      ['FB', 'Futures Brokers'],
      ['FD', 'Futures Dealers'],
      ['SP', 'Securities Industry Representatives'],
      ['FP', 'Futures Industry Representatives'],
      ['DD', 'Disqualified Directors'],
      ['BS', 'Banned Securities Representatives'],
      ['BF', 'Banned Futures Representatives'],
      ['FX', 'Banned Financial Services Representatives'],
      ['IF', 'Register Type IF'],
      ['IG', 'Register Type IG'],
      ['IL', 'Register Type IL'],
    ]),
  ),
  table(
    'weekly-summary-types',
    'Weekly summary types',
    entries([
      ['DI', 'Disqualified Directors'],
      ['EX', 'External Administrations'],
      ['LC', 'Licences Granted'],
      ['NA', 'Changes of Company Name'],
      ['RE', 'Registration of New Companies'],
      ['MI', 'Newly Registered Managed Investment Schemes'],
    ]),
  ),
  table(
    'weekly-summary-sub-types',
    'Weekly summary sub-types',
    entries([
      ['CHGT', 'Change of Company Type'],
      ['DISQ', 'Disqualified Director'],
      ['DRGD', 'Deregistration'],
      ['EXAC', 'Administrator of a Company under Administration'],
      ['EXAD', 'Administrator of a Deed of Company Arrangement'],
      ['EXAL', 'Appointment of a Liquidator'],
      ['EXCQ', 'Notice of Order Winding Up'],
      ['EXMN', 'Scheme Manager under Part 5.1'],
      ['EXRC', 'Appointment of Controller'],
      ['EXRQ', 'Resolution of Winding Up'],
      ['LCFB', 'Futures Broker'],
      ['LCFD', 'Futures Adviser'],
      ['LCFL', 'Financial Services Licensee'],
      ['LCIA', 'Investment Adviser'],
      ['LCOQ', 'Official Liquidator'],
      ['LCRA', 'Auditor'],
      ['LCRQ', 'Liquidator'],
      ['LCSD', 'Securities Dealer'],
      ['MISM', 'Newly Registered Managed Investment Scheme'],
      ['NAME', 'Change of Company Name'],
      ['REGN', 'Registration of New Company'],
      ['REIN', 'Reinstatement'],
    ]),
  ),
  table(
    'licence-ban-types',
    'Licence ban types',
    entries([
      ['BSA', 'Securities Dealer'],
      ['BSB', 'Investment Adviser'],
      ['BSC', 'Securities Dealer and Investment Adviser'],
      ['BFA', 'Futures Broker'],
      ['BFB', 'Futures Adviser'],
      ['BFC', 'Futures Broker and Futures Adviser'],
    ]),
  ),
  table('suspension-reasons', 'Suspension reasons', entries(suspensionReasons)),
  table(
    'authorities-held',
    'Authorities held',
    entries([
      ['RS', 'Authorities Held from Securities Dealers'],
      ['RI', 'Authorities Held from Investment Advisers'],
      ['RF', 'Authorities Held from Futures Brokers'],
      ['RD', 'Authorities Held from Futures Advisers'],
    ]),
  ),
  table(
    'register-status',
    'Register status',
    entries([
      ['C', 'Current'],
      ['S', 'Suspended'],
    ]),
  ),
  table(
    'pre-asic-legislation',
    'Pre-ASIC legislation',
    entries([
      ['0001', 'Companies Act'],
      ['0002', 'Security Industry Act'],
      ['0003', 'Future Industry Act'],
      ['0004', 'Companies Code'],
      ['0005', 'Security Industry Code'],
      ['0006', 'Future Industry Code'],
    ]),
  ),
  table(
    'register-address-types',
    'Register address types',
    entries([
      ['OP', 'Other Place of Practice'],
      ['PA', 'Principal Place of Practice'],
      ['PS', 'Postal Address'],
      ['RB', "Representative's Business Address"],
    ]),
  ),
  table(
    'register-trading-types',
    'Register trading types',
    entries([
      ['FI', 'Firm'],
      ['TN', 'Trading Name'],
      ['PN', 'Practice Name'],
    ]),
  ),
  table(
    'number-types',
    'Number types',
    registryEntries([
      ['ACN', 'Australian Company Number', '1'],
      ['ARBN', 'Australian Registered Body Number', '2'],
      ['NUMBER', 'Registration Number', '3'],
      ['ARSN', 'Australian Registered Scheme Number', '4'],
    ]),
  ),
  table(
    'licence-statuses',
    'Licence statuses',
    entries([
      ['APPR', 'Application Approved and Licence Granted'],
      ['NOAC', 'Not Active (Revoked)'],
      ['PEND', 'Decision Pending'],
      ['REFS', 'Application Refused'],
      ['SUSP', 'Suspended'],
    ]),
  ),
  table(
    'person-licence-roles',
    'Person licence roles',
    entries([
      ['BF', 'Banned Futures Representative'],
      ['BS', 'Banned Securities Representative'],
      ['DD', 'Disqualified Persons'],
      ['AF', 'Auditor of AFS Licensee'],
      ['FK', 'AFS Responsible Person'],
      ['FL', 'Financial Services Licencee'],
      ['FR', 'Financial Services Representative'],
      ['FX', 'Banned Financial Services Representative'],
      ['LP', 'Lodging Party'],
      ['OQ', 'Official Liquidators'],
      ['RA', 'Registered Auditor'],
      ['RQ', 'Registered Liquidator'],
    ]),
  ),
  table(
    'document-list-organisation-types',
    'Document list organisation types',
    entries(documentListOrganisationTypeCodes.map((code) => [code, organisationTypeLabel.get(code) ?? code])),
  ),
  table(
    'register-officer-roles',
    'Register officer roles',
    entries([
      ['DR', 'Director'],
      ['EO', 'Previous PEO'],
      ['SR', 'Secretary'],
      ['AA', 'Appointed Auditor'],
      ['FE', 'Member of a Futures Exchange'],
      ['RN', 'Responsible Entity'],
      ['TN', 'Temporary Responsible Entity'],
      ['CA', 'Compliance Plan Auditor'],
    ]),
  ),
  table(
    'governance-types',
    'Governance types',
    entries([
      ['C', 'Constitution'],
      ['R', 'Replaceable Rules'],
    ]),
  ),
  table(
    'scheme-categories',
    'Scheme categories',
    entries([
      ['DRVT', 'Derivatives Scheme'],
      ['FAST', 'Financial Assets Scheme'],
      ['FILM', 'Film Scheme'],
      ['IDPS', 'IDPS-Like'],
      ['INVP', 'Invested Directed Portfolio Services'],
      ['LPTR', 'Listed Property Trusts'],
      ['MSTR', 'Member Discretionary Master Fund & Similar'],
      ['MTGE', 'Mortgage Scheme'],
      ['OTHR', 'Other Kind Scheme'],
      ['PP', 'Primary Production to Be Converted'],
      ['PPA', 'Primary Production - Aquaculture'],
      ['PPCB', 'Primary Production - Cattle Breeding'],
      ['PPF', 'Primary Production - Forestry'],
      ['PPH', 'Primary Production - Horticulture'],
      ['PPHB', 'Primary Production - Horse Breeding'],
      ['PPL', 'Primary Production - Livestock Grown for Fleece'],
      ['PPR', 'Primary Production - Ratites'],
      ['PPTT', 'Primary Production - Tea Trees'],
      ['PPV', 'Primary Production - Viticulture'],
      ['PRCV', 'Property to Be Converted'],
      ['PRIM', 'Primary Production'],
      ['REAL', 'Direct Real Property Scheme'],
      ['SPTR', 'Stable Property Trusts or Syndicates'],
      ['SSSC', 'Serviced Strata Schemes'],
      ['TIME', 'Time Share Scheme'],
    ]),
  ),
  // Not shown in the spec: best knowledge. registryCode is assumed to equal the code until the
  // registry's raw values are confirmed (docs/reference-data.md).
  table(
    'controlling-jurisdictions',
    'Controlling jurisdictions',
    registryEntries([
      ['ASIC', 'Australian Securities and Investments Commission', 'ASIC'],
      ['ACT', 'Australian Capital Territory', 'ACT'],
      ['CI', 'Christmas Island', 'CI'],
      ['CKI', 'Cocos (Keeling) Islands', 'CKI'],
      ['JBT', 'Jervis Bay Territory', 'JBT'],
      ['NI', 'Norfolk Island', 'NI'],
      ['NSW', 'New South Wales', 'NSW'],
      ['NT', 'Northern Territory', 'NT'],
      ['QLD', 'Queensland', 'QLD'],
      ['SA', 'South Australia', 'SA'],
      ['TAS', 'Tasmania', 'TAS'],
      ['VIC', 'Victoria', 'VIC'],
      ['WA', 'Western Australia', 'WA'],
    ]),
  ),
]);

const tablesBySlug: ReadonlyMap<string, CodeTableDefinition> = new Map(
  codeTables.map((definition) => [definition.table, definition]),
);

const labelsBySlug: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  codeTables.map((definition) => [
    definition.table,
    new Map(definition.entries.map((entry) => [entry.code, entry.label])),
  ]),
);

export function findCodeTable(slug: string): CodeTableDefinition | undefined {
  return tablesBySlug.get(slug);
}

/** Label for a code in a table; an unknown code (or unknown table) returns the code itself (open code sets). */
export function labelFor(table: string, code: string): string {
  return labelsBySlug.get(table)?.get(code) ?? code;
}
