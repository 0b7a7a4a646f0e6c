import { escapeHtml, page } from '../shared/docs/pages.ts';
import { codeTablesFile } from '../shared/reference/code-tables.ts';
import type { EntryProvenance, ProvenanceBasis } from '../shared/reference/data.ts';
import { codeTablesProvenance, sourcesFile } from '../shared/reference/provenance.ts';

/**
 * Small HTML pages behind the local stack's `docsUrl` links, built from the same data the API
 * serves. The error reference (`/docs/errors`) is a route of the service (shared/docs/pages.ts).
 */

/** The provenance notes' Markdown (inline code, bold, bare URLs) as HTML. */
const inlineMarkdown = (text: string) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/https?:\/\/[^\s)<&]+[^\s)<&.,]/g, (url) => `<a href="${url}">${url}</a>`);

const basisName = (basis: ProvenanceBasis) => basis.replace('-', ' ');
const sourceName = (id: string) => sourcesFile.sources.find((source) => source.id === id)?.name ?? id;

/** "labels: best knowledge" for the parts of an entry whose basis differs from its table's. */
function entryProvenance(entry: EntryProvenance | undefined, table: EntryProvenance): string {
  if (!entry) return '';
  const names = { codes: 'code', labels: 'label', registryCodes: 'registry code' } as const;
  const parts = (['codes', 'labels', 'registryCodes'] as const)
    .filter((field) => entry[field] !== undefined && entry[field] !== table[field])
    .map((field) => `${names[field]}: ${basisName(entry[field] as ProvenanceBasis)}`);
  return [...parts.map(escapeHtml), ...(entry.note ? [inlineMarkdown(entry.note)] : [])].join('<br>');
}

/** Every table with its entries and provenance, from shared/reference/data/code-tables(.provenance).json. */
export function codeTablesPage(): string {
  const sections = codeTablesFile.tables
    .map(({ table, title, entries }) => {
      const provenance = codeTablesProvenance.tables[table];
      if (!provenance) throw new Error(`code-tables.provenance.json has no record for ${table}`);
      const bases = [
        `codes: ${basisName(provenance.codes)}`,
        `labels: ${basisName(provenance.labels)}`,
        ...(provenance.registryCodes ? [`registry codes: ${basisName(provenance.registryCodes)}`] : []),
        ...(provenance.from ? [`from: ${provenance.from.map(sourceName).join(', ')}`] : []),
        ...(provenance.agreesWith
          ? [`agrees with: ${provenance.agreesWith.map(sourceName).join(', ')}`]
          : []),
      ];
      const notes = (provenance.notes ?? []).map((note) => `<li>${inlineMarkdown(note)}</li>`).join('');
      const rows = entries
        .map(
          ([code, label, registryCode]) =>
            `<tr><td><code>${escapeHtml(code)}</code></td><td>${escapeHtml(label)}</td><td>${escapeHtml(registryCode ?? '')}</td><td>${entryProvenance(provenance.entries?.[code], provenance)}</td></tr>`,
        )
        .join('');
      return `<h2 id="${table}">${escapeHtml(title)} <small><code>${table}</code></small></h2>
<p>Provenance: ${escapeHtml(bases.join('; '))}.</p>${notes ? `<ul>${notes}</ul>` : ''}
<table><tr><th>code</th><th>label</th><th>registryCode</th><th>provenance (where it differs)</th></tr>${rows}</table>`;
    })
    .join('\n');
  return page(
    'Code tables',
    `<p>The registry's code tables, with where each value comes from: <em>spec</em>, <em>published</em> (the registry's published tables or a public copy), <em>best knowledge</em> or <em>placeholder</em>. Code sets are open: compare on <code>code</code>, never on <code>label</code>. Sources: ${sourcesFile.sources.map((source) => `<b>${escapeHtml(source.name)}</b>: ${inlineMarkdown(source.text)}`).join('; ')}</p>\n${sections}`,
  );
}
