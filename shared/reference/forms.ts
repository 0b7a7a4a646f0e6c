/**
 * Static copy of the registry's form schedule (spec document 2, section 4.7).
 *
 * The live schedule is refreshed from the registry daily and is authoritative (spec section 9);
 * this list is the fallback and seed data. Descriptions and category membership change over time,
 * so callers should store form codes, not descriptions. Provenance: docs/reference-data.md.
 */

export const formCategories = [
  'all',
  'internal-administration',
  'buy-backs',
  'debt',
  'deregistration',
  'disclosure-notices',
  'financial',
  'fundraising',
  'takeovers-short',
  'takeovers-all',
] as const;

export type FormCategory = (typeof formCategories)[number];

type MemberCategory = Exclude<FormCategory, 'all'>;

export interface FormDefinition {
  readonly formCode: string;
  readonly description: string;
  readonly categories: readonly MemberCategory[];
}

function form(formCode: string, description: string, ...categories: MemberCategory[]): FormDefinition {
  return Object.freeze({ formCode, description, categories: Object.freeze(categories) });
}

const admin = 'internal-administration';
const buyBacks = 'buy-backs';
const debt = 'debt';
const dereg = 'deregistration';
const disclosure = 'disclosure-notices';
const financial = 'financial';
const fundraising = 'fundraising';
const takeoversShort = 'takeovers-short';
const takeoversAll = 'takeovers-all';

/**
 * The form schedule in the registry's order (by form code as the registry lists them).
 * Codes are kept in ascending text order, so 2205 sorts before 280 and 5022 before 505.
 */
export const forms: readonly FormDefinition[] = Object.freeze([
  form('106', 'Request to withdraw a lodged document', admin),
  form('201', 'Application for registration as an Australian company', admin),
  form('205', 'Notification of resolution', admin, dereg),
  form('206', 'Application for change of company type', admin),
  form('207Z', 'Certification of compliance with stamp duty law', admin, fundraising),
  form('208', 'Notification of details of shares issued other than for cash', admin, fundraising),
  form('2205', 'Notification of resolutions regarding shares', admin, buyBacks),
  form('2560', 'Notification of reduction in share capital details', admin, buyBacks),
  form('2601', 'Notification of financial assistance details', admin),
  form('280', 'Notification of share buy-back details', buyBacks),
  form('281', 'Notification of intention to carry out a share buy-back', buyBacks),
  form('309', 'Notification of details of a charge', debt),
  form('312', 'Notification of discharge or release of property from a charge', debt),
  form('314', 'Return of members of firm of auditors', financial),
  form('350', 'Certification of compliance with stamp duty law', debt),
  form('370', 'Notification by officeholder of resignation or retirement', admin),
  form('388', 'Copy of financial statements and reports', financial),
  form('402', 'Application for registration as a foreign company', admin),
  form('410', 'Application for reservation of a name', admin),
  form('480', 'Annual statement', admin),
  form('484', 'Change to company details', admin),
  form('492', 'Request for correction', admin),
  form('502', 'Historical appointment of external administrator', dereg),
  form('5022', 'Outcome of proposal to creditors or contributories without a meeting', dereg),
  form('505', 'Notification of appointment or cessation of an external administrator', dereg, debt),
  form('507', 'Report on company activities and property', dereg),
  form('5100', 'Application for registration of a managed investment scheme', admin, fundraising),
  form('519', 'Notification of court action relating to winding up', dereg),
  form('520', 'Declaration of solvency', dereg),
  form('524', 'Presentation of accounts and statement', dereg),
  form('525', 'Notice of disclaimer of onerous property', dereg),
  form('546', 'Notice of intention to declare a dividend', dereg),
  form('5602', 'Annual administration return', dereg),
  form('5603', 'End of administration return', dereg),
  form('568', 'Application for extension of time to lodge declaration of solvency', dereg),
  form('588', 'Office copy of court order to appoint a provisional liquidator', dereg),
  form('6010', 'Application for voluntary deregistration of a company', dereg),
  form('6021', 'Notice of compulsory acquisition following takeover bid', takeoversShort, takeoversAll),
  form('603', 'Notice of initial substantial holder', disclosure, takeoversShort, takeoversAll),
  form(
    '604',
    'Notice of change of interests of substantial holder',
    disclosure,
    takeoversShort,
    takeoversAll,
  ),
  form('605', 'Notice of ceasing to be a substantial holder', disclosure, takeoversShort, takeoversAll),
  form('902', 'Supplementary document', admin),
]);

const formsByCategory: ReadonlyMap<FormCategory, readonly FormDefinition[]> = new Map<
  FormCategory,
  readonly FormDefinition[]
>(
  formCategories.map((category) => [
    category,
    category === 'all'
      ? forms
      : Object.freeze(forms.filter((definition) => definition.categories.includes(category))),
  ]),
);

/** Forms in a category, schedule order kept; 'all' returns every form. */
export function formsInCategory(category: FormCategory): readonly FormDefinition[] {
  return formsByCategory.get(category) ?? [];
}

/** The API's `form` resource; `category` is the category the client asked for. */
export const presentForm = (form: FormDefinition, category: FormCategory) => ({
  object: 'form' as const,
  formCode: form.formCode,
  description: form.description,
  category,
});
