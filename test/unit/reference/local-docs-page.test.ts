import { describe, expect, it } from 'vitest';
import { codeTablesPage } from '../../../local/docs.ts';
import { codeTables } from '../../../shared/reference/code-tables.ts';

/** The local stack's /docs/reference/code-tables page, the target of every table's docsUrl. */
describe('codeTablesPage', () => {
  const html = codeTablesPage();

  it('has an anchored section per table, in order, with every entry', () => {
    const anchors = [...html.matchAll(/<h2 id="([^"]+)">/g)].map((match) => match[1]);
    expect(anchors).toEqual(codeTables.map((table) => table.table));
    const section = html.slice(
      html.indexOf('<h2 id="number-types">'),
      html.indexOf('<h2 id="licence-statuses">'),
    );
    expect(section).toContain('<td><code>NUMBER</code></td><td>Registration Number</td><td>3</td>');
    expect(html).toContain('<td><code>ALT REGN</code></td><td>Altered Registration</td>');
  });

  it('shows the provenance from the data file: bases, sources, notes and entry exceptions', () => {
    const states = html.slice(
      html.indexOf('<h2 id="states">'),
      html.indexOf('<h2 id="office-holder-roles">'),
    );
    expect(states).toContain('Provenance: codes: published; labels: published; from: getedge.com.au.');
    expect(states).toContain(
      '<td><code>AAT</code></td><td>Australian Antarctic Territory</td><td></td><td>code: best knowledge<br>label: best knowledge</td>',
    );
    expect(states).toContain(
      '<a href="https://getedge.com.au/docs/api/table-references">https://getedge.com.au/docs/api/table-references</a>.',
    );
    expect(html).toContain('registry codes: best knowledge');
    expect(html).toContain('<strong>best knowledge</strong>');
  });
});
