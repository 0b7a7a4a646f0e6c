/**
 * Checks of the reference data files (`data/*.json`), run by test/unit/reference/data.test.ts and
 * by `npm run docs:reference` before it writes anything. Not run by the service: the data files
 * are part of the bundles, so a bad edit fails the tests rather than a cold start.
 *
 * Each check returns a list of problems, empty when the data is sound. The checks take the parsed
 * JSON as `unknown`, so they hold whatever a hand edit put in the file.
 */

import { provenanceBases } from './data.ts';

/** The tables whose entries carry the registry's original value (spec document 1, section 2.8). */
export const REGISTRY_CODED_TABLES: readonly string[] = [
  'jurisdictions',
  'controlling-jurisdictions',
  'number-types',
];

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

type Problems = string[];
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function keysIn(where: string, value: Json, required: string[], optional: string[], problems: Problems) {
  for (const key of required) if (!(key in value)) problems.push(`${where}: missing ${key}`);
  for (const key of Object.keys(value)) {
    if (!required.includes(key) && !optional.includes(key)) problems.push(`${where}: unknown key ${key}`);
  }
}

function basis(where: string, value: unknown, allowed: readonly string[], problems: Problems) {
  if (value !== undefined && !allowed.includes(value as string)) {
    problems.push(`${where}: ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
  }
}

function sourceIds(where: string, value: unknown, known: ReadonlySet<string>, problems: Problems) {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length === 0) {
    problems.push(`${where}: must be a non-empty list of source ids`);
    return;
  }
  for (const id of value) if (!known.has(id)) problems.push(`${where}: unknown source ${JSON.stringify(id)}`);
  if (new Set(value).size !== value.length) problems.push(`${where}: repeats a source`);
}

function texts(where: string, value: unknown, problems: Problems) {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length === 0 || !value.every(isText)) {
    problems.push(`${where}: must be a non-empty list of non-empty strings`);
  }
}

/** sources.json: `{about, sources: [{id, name, text}]}` with unique slug ids. */
export function checkSources(file: unknown): Problems {
  const problems: Problems = [];
  if (!isObject(file)) return ['sources.json: not an object'];
  keysIn('sources.json', file, ['about', 'sources'], [], problems);
  if (!Array.isArray(file.sources)) return [...problems, 'sources.json: sources is not a list'];
  const seen = new Set<string>();
  for (const [index, source] of file.sources.entries()) {
    const where = `sources.json sources[${index}]`;
    if (!isObject(source)) {
      problems.push(`${where}: not an object`);
      continue;
    }
    keysIn(where, source, ['id', 'name', 'text'], [], problems);
    if (typeof source.id !== 'string' || !SLUG.test(source.id)) problems.push(`${where}: id must be a slug`);
    else if (seen.has(source.id)) problems.push(`${where}: duplicate id ${source.id}`);
    else seen.add(source.id);
    if (!isText(source.name)) problems.push(`${where}: empty name`);
    if (!isText(source.text)) problems.push(`${where}: empty text`);
  }
  return problems;
}

/** The ids of a sources file (invalid entries skipped; `checkSources` reports them). */
export function sourceIdsOf(file: unknown): ReadonlySet<string> {
  const sources = isObject(file) && Array.isArray(file.sources) ? file.sources : [];
  return new Set(
    sources.flatMap((source) => (isObject(source) && typeof source.id === 'string' ? [source.id] : [])),
  );
}

function checkTableProvenance(
  where: string,
  provenance: unknown,
  codes: ReadonlySet<string>,
  registryCoded: boolean,
  sources: ReadonlySet<string>,
  problems: Problems,
) {
  if (!isObject(provenance)) {
    problems.push(`${where}: not an object`);
    return;
  }
  const at = where;
  keysIn(
    at,
    provenance,
    registryCoded ? ['codes', 'labels', 'registryCodes'] : ['codes', 'labels'],
    ['from', 'agreesWith', 'notes', 'entries'],
    problems,
  );
  basis(`${at}.codes`, provenance.codes, provenanceBases, problems);
  basis(`${at}.labels`, provenance.labels, provenanceBases, problems);
  basis(`${at}.registryCodes`, provenance.registryCodes, provenanceBases, problems);
  sourceIds(`${at}.from`, provenance.from, sources, problems);
  sourceIds(`${at}.agreesWith`, provenance.agreesWith, sources, problems);
  texts(`${at}.notes`, provenance.notes, problems);
  if (provenance.entries === undefined) return;
  if (!isObject(provenance.entries)) {
    problems.push(`${at}.entries: not an object`);
    return;
  }
  for (const [code, entry] of Object.entries(provenance.entries)) {
    const entryAt = `${at}.entries[${JSON.stringify(code)}]`;
    if (!codes.has(code)) problems.push(`${entryAt}: no entry has this code`);
    if (!isObject(entry) || Object.keys(entry).length === 0) {
      problems.push(`${entryAt}: must be an object with at least one of codes, labels, registryCodes, note`);
      continue;
    }
    keysIn(
      entryAt,
      entry,
      [],
      registryCoded ? ['codes', 'labels', 'registryCodes', 'note'] : ['codes', 'labels', 'note'],
      problems,
    );
    basis(`${entryAt}.codes`, entry.codes, provenanceBases, problems);
    basis(`${entryAt}.labels`, entry.labels, provenanceBases, problems);
    basis(`${entryAt}.registryCodes`, entry.registryCodes, provenanceBases, problems);
    if (entry.note !== undefined && !isText(entry.note)) problems.push(`${entryAt}.note: empty`);
  }
}

/**
 * code-tables.json with code-tables.provenance.json: `{about, tables: [{table, title, entries}]}`.
 * Slugs are unique kebab-case; titles non-empty; every entry is `[code, label]`, or
 * `[code, label, registryCode]` exactly in the registry-coded tables; no code twice in a table.
 * The provenance has one record per table, in the same order, shaped as in `data.ts`, naming only
 * sources that exist and codes that the table holds.
 */
export function checkCodeTables(
  file: unknown,
  provenanceFile: unknown,
  sources: ReadonlySet<string>,
): Problems {
  const problems: Problems = [];
  if (!isObject(file)) return ['code-tables.json: not an object'];
  keysIn('code-tables.json', file, ['about', 'tables'], [], problems);
  if (!isText(file.about)) problems.push('code-tables.json: empty about');
  if (!Array.isArray(file.tables)) return [...problems, 'code-tables.json: tables is not a list'];
  if (!isObject(provenanceFile)) return [...problems, 'code-tables.provenance.json: not an object'];
  keysIn('code-tables.provenance.json', provenanceFile, ['about', 'tables'], [], problems);
  if (!isText(provenanceFile.about)) problems.push('code-tables.provenance.json: empty about');
  const provenance = isObject(provenanceFile.tables) ? provenanceFile.tables : {};
  if (!isObject(provenanceFile.tables)) problems.push('code-tables.provenance.json: tables is not an object');
  const slugs: string[] = [];
  for (const [index, table] of file.tables.entries()) {
    let where = `code-tables.json tables[${index}]`;
    if (!isObject(table)) {
      problems.push(`${where}: not an object`);
      continue;
    }
    keysIn(where, table, ['table', 'title', 'entries'], [], problems);
    const slug = table.table;
    if (typeof slug !== 'string' || !SLUG.test(slug))
      problems.push(`${where}: table must be a kebab-case slug`);
    else {
      where = `code-tables.json ${slug}`;
      if (slugs.includes(slug)) problems.push(`${where}: duplicate table`);
      slugs.push(slug);
    }
    if (!isText(table.title)) problems.push(`${where}: empty title`);
    const registryCoded = REGISTRY_CODED_TABLES.includes(slug as string);
    const codes = new Set<string>();
    if (!Array.isArray(table.entries) || table.entries.length === 0) {
      problems.push(`${where}: entries must be a non-empty list`);
    } else {
      for (const entry of table.entries) {
        const shape = registryCoded ? '[code, label, registryCode]' : '[code, label]';
        if (!Array.isArray(entry) || entry.length !== (registryCoded ? 3 : 2) || !entry.every(isText)) {
          problems.push(`${where}: entry ${JSON.stringify(entry)} is not ${shape} of non-empty strings`);
          continue;
        }
        const code = entry[0] as string;
        if (code !== code.trim()) problems.push(`${where}: code ${JSON.stringify(code)} has outer spaces`);
        if (codes.has(code)) problems.push(`${where}: duplicate code ${JSON.stringify(code)}`);
        codes.add(code);
      }
    }
    if (typeof slug === 'string') {
      const at = `code-tables.provenance.json ${slug}`;
      if (!Object.hasOwn(provenance, slug)) problems.push(`${at}: missing`);
      else checkTableProvenance(at, provenance[slug], codes, registryCoded, sources, problems);
    }
  }
  for (const slug of Object.keys(provenance)) {
    if (!slugs.includes(slug))
      problems.push(`code-tables.provenance.json ${slug}: no such table in code-tables.json`);
  }
  if (
    JSON.stringify(Object.keys(provenance).filter((slug) => slugs.includes(slug))) !==
    JSON.stringify([...new Set(slugs)].filter((slug) => Object.hasOwn(provenance, slug)))
  ) {
    problems.push('code-tables.provenance.json: tables are not in the order of code-tables.json');
  }
  for (const slug of REGISTRY_CODED_TABLES) {
    if (!slugs.includes(slug)) problems.push(`code-tables.json: registry-coded table ${slug} is missing`);
  }
  return problems;
}

const formBases = provenanceBases.filter((value) => value !== 'placeholder');

/**
 * forms.json with forms.provenance.json. Forms have unique non-empty codes in ascending text order,
 * a description and at least one member category (none twice). The provenance lists every member
 * category of `memberCategories` once, in that order, with its rule, and one record per form, in
 * the same order, naming only sources that exist.
 */
export function checkForms(
  file: unknown,
  provenanceFile: unknown,
  memberCategories: readonly string[],
  sources: ReadonlySet<string>,
): Problems {
  const problems: Problems = [];
  if (!isObject(file)) return ['forms.json: not an object'];
  keysIn('forms.json', file, ['about', 'forms'], [], problems);
  if (!isText(file.about)) problems.push('forms.json: empty about');
  if (!Array.isArray(file.forms) || file.forms.length === 0) {
    return [...problems, 'forms.json: forms must be a non-empty list'];
  }
  if (!isObject(provenanceFile)) return [...problems, 'forms.provenance.json: not an object'];
  keysIn('forms.provenance.json', provenanceFile, ['about', 'categories', 'forms'], [], problems);
  if (!isText(provenanceFile.about)) problems.push('forms.provenance.json: empty about');
  if (!Array.isArray(provenanceFile.categories))
    problems.push('forms.provenance.json: categories is not a list');
  else {
    const listed = provenanceFile.categories.map((category) =>
      isObject(category) ? category.category : undefined,
    );
    if (JSON.stringify(listed) !== JSON.stringify(memberCategories)) {
      problems.push(`forms.provenance.json: categories must be ${memberCategories.join(', ')} in that order`);
    }
    for (const [index, category] of provenanceFile.categories.entries()) {
      const where = `forms.provenance.json categories[${index}]`;
      if (!isObject(category)) {
        problems.push(`${where}: not an object`);
        continue;
      }
      keysIn(where, category, ['category', 'rule'], ['notes'], problems);
      if (!isText(category.rule)) problems.push(`${where}: empty rule`);
      texts(`${where}.notes`, category.notes, problems);
    }
  }
  const provenance = Array.isArray(provenanceFile.forms) ? provenanceFile.forms : [];
  if (!Array.isArray(provenanceFile.forms)) problems.push('forms.provenance.json: forms is not a list');
  const codes: string[] = [];
  for (const [index, form] of file.forms.entries()) {
    let where = `forms.json forms[${index}]`;
    if (!isObject(form)) {
      problems.push(`${where}: not an object`);
      continue;
    }
    keysIn(where, form, ['formCode', 'description', 'categories'], [], problems);
    const formCode = form.formCode;
    if (!isText(formCode) || formCode !== formCode.trim()) {
      problems.push(`${where}: formCode must be a non-empty code without outer spaces`);
    } else {
      where = `forms.json form ${formCode}`;
      if (codes.includes(formCode)) problems.push(`${where}: duplicate form code`);
      const previous = codes.at(-1);
      if (previous !== undefined && previous >= formCode) {
        problems.push(`${where}: not in ascending text order (after ${previous})`);
      }
      codes.push(formCode);
    }
    if (!isText(form.description)) problems.push(`${where}: empty description`);
    if (!Array.isArray(form.categories) || form.categories.length === 0) {
      problems.push(`${where}: needs at least one category`);
    } else {
      for (const category of form.categories) {
        if (!memberCategories.includes(category))
          problems.push(`${where}: unknown category ${JSON.stringify(category)}`);
      }
      if (new Set(form.categories).size !== form.categories.length)
        problems.push(`${where}: repeats a category`);
    }
  }
  const provenanceCodes = provenance.map((record) => (isObject(record) ? record.formCode : undefined));
  if (JSON.stringify(provenanceCodes) !== JSON.stringify(codes)) {
    problems.push('forms.provenance.json: forms must list the codes of forms.json, in the same order');
  }
  for (const [index, record] of provenance.entries()) {
    const at = `forms.provenance.json ${isObject(record) && typeof record.formCode === 'string' ? record.formCode : `forms[${index}]`}`;
    if (!isObject(record)) {
      problems.push(`${at}: not an object`);
      continue;
    }
    keysIn(at, record, ['formCode', 'number', 'title'], ['from', 'note'], problems);
    basis(`${at}.number`, record.number, formBases, problems);
    basis(`${at}.title`, record.title, formBases, problems);
    sourceIds(`${at}.from`, record.from, sources, problems);
    if (record.note !== undefined && !isText(record.note)) problems.push(`${at}.note: empty`);
  }
  return problems;
}
