/**
 * `npm run docs:reference`: checks the reference data files (shared/reference/data/*.json) and
 * rewrites the generated part of docs/reference-data.md from them. `-- --check` writes nothing and
 * exits 1 when the page is out of date (test/unit/reference/docs.test.ts makes the same check).
 */
import { codeTablesFile } from '../shared/reference/code-tables.ts';
import { formCategories, formsFile } from '../shared/reference/forms.ts';
import { withGeneratedReference } from '../shared/reference/markdown.ts';
import { codeTablesProvenance, formsProvenance, sourcesFile } from '../shared/reference/provenance.ts';
import { checkCodeTables, checkForms, checkSources, sourceIdsOf } from '../shared/reference/validate.ts';
import { writeGeneratedPage } from './generated-page.ts';

const sources = sourceIdsOf(sourcesFile);
const problems = [
  ...checkSources(sourcesFile),
  ...checkCodeTables(codeTablesFile, codeTablesProvenance, sources),
  ...checkForms(
    formsFile,
    formsProvenance,
    formCategories.filter((category) => category !== 'all'),
    sources,
  ),
];
if (problems.length > 0) {
  console.error(
    `The reference data has ${problems.length} problem(s); docs/reference-data.md was not written:`,
  );
  for (const problem of problems) console.error(`- ${problem}`);
  process.exit(1);
}

writeGeneratedPage('docs/reference-data.md', 'npm run docs:reference', withGeneratedReference);
