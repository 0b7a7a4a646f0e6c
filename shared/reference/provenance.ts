/**
 * The provenance of the reference data and its sources (`data/*.provenance.json`,
 * `data/sources.json`), for docs/reference-data.md, the checks and the local docs page. Nothing
 * the service runs imports this module: esbuild would inline these files into every bundle.
 * JSON types widen literals, hence the casts; `validate.ts` checks the shapes in the unit tests.
 */

import codeTables from './data/code-tables.provenance.json' with { type: 'json' };
import forms from './data/forms.provenance.json' with { type: 'json' };
import sources from './data/sources.json' with { type: 'json' };
import type { CodeTablesProvenanceFile, FormsProvenanceFile, SourcesFile } from './data.ts';

export const codeTablesProvenance = codeTables as unknown as CodeTablesProvenanceFile;
export const formsProvenance = forms as unknown as FormsProvenanceFile;
export const sourcesFile = sources as unknown as SourcesFile;
