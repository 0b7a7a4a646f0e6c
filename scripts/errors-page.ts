/**
 * Writes the error reference page (`/docs/errors`, shared/docs/errors-page.ts) to the file named
 * on the command line: lib/bundling.ts runs it after bundling the page's function, which serves
 * that file rather than loading every capability's error catalogue at start.
 */
import { writeFileSync } from 'node:fs';
import { serviceErrors } from '../shared/app/errors.ts';
import { errorsPage } from '../shared/docs/errors-page.ts';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx scripts/errors-page.ts <file to write>');
writeFileSync(file, errorsPage(serviceErrors));
