/**
 * What the generated documentation pages share: Markdown tables padded as Prettier pads them, and
 * replacing a page's generated part between its markers (docs/reference-data.md,
 * docs/sandbox.md, docs/registry-protocol.md).
 */

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** A Markdown table with its columns padded to the widest cell, as Prettier writes it. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, column) =>
    Math.max(3, ...cells.map((row) => [...(row[column] ?? '')].length)),
  );
  const line = (row: readonly string[]) =>
    `| ${row.map((text, column) => text + ' '.repeat((widths[column] ?? 0) - [...text].length)).join(' | ')} |`;
  const [head, ...body] = cells;
  return [line(head ?? []), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

/** A generated part: its markers, and what lies between them. */
export interface GeneratedPart {
  start: string;
  end: string;
  render: () => string;
}

/** The part with its markers, as it sits in the page. */
export const renderPart = ({ start, end, render }: GeneratedPart): string =>
  [start, '', render(), '', end].join('\n');

/** The page with each part replaced; throws when a part's markers are missing or out of order. */
export function withGeneratedParts(page: string, pageName: string, parts: readonly GeneratedPart[]): string {
  return parts.reduce((text, part) => {
    const start = text.indexOf(part.start);
    const end = text.indexOf(part.end);
    if (start < 0 || end < start) {
      throw new Error(`${pageName} needs the markers ${part.start} and ${part.end}, in order`);
    }
    return text.slice(0, start) + renderPart(part) + text.slice(end + part.end.length);
  }, page);
}
