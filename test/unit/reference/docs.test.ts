import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_END,
  GENERATED_START,
  renderGeneratedReference,
  withGeneratedReference,
} from '../../../shared/reference/markdown.ts';

const page = readFileSync(new URL('../../../docs/reference-data.md', import.meta.url), 'utf8');

describe('docs/reference-data.md', () => {
  it('has the generated part exactly as npm run docs:reference writes it from the data files', () => {
    // On failure: run `npm run docs:reference` and commit the page with the data change.
    expect(
      withGeneratedReference(page),
      'docs/reference-data.md is out of date: run npm run docs:reference',
    ).toBe(page);
  });

  it('holds the generated part once, between its markers', () => {
    expect(page.split(GENERATED_START)).toHaveLength(2);
    expect(page.split(GENERATED_END)).toHaveLength(2);
    expect(page).toContain(renderGeneratedReference());
  });
});

describe('withGeneratedReference', () => {
  it('replaces only what lies between the markers', () => {
    const stale = `# Title\n\nbefore\n\n${GENERATED_START}\nold\n${GENERATED_END}\n\nafter\n`;
    expect(withGeneratedReference(stale)).toBe(
      `# Title\n\nbefore\n\n${renderGeneratedReference()}\n\nafter\n`,
    );
  });

  it('refuses a page without the markers', () => {
    expect(() => withGeneratedReference('# Title\n')).toThrow(/needs the markers/);
  });

  it('renders the tables, their exceptions, the forms and the sources', () => {
    const part = renderGeneratedReference();
    expect(part).toContain('| [states](#states) ');
    expect(part).toContain('| 6010 ');
    expect(part).toContain('- **confirm.com.au** (`confirm`)');
    expect(part).toContain('- **Labels: best knowledge** for `APPL` Application');
  });
});
