import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is a map (issue 41): short, and every path it names exists, so it cannot
 * drift from the tree unnoticed. The decision records' links and index are checked the same way.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const map = read('docs/architecture.md');
const decisionsDir = 'docs/decisions';
const recordFiles = readdirSync(join(root, decisionsDir)).filter((name) =>
  /^\d{4}-[a-z0-9-]+\.md$/.test(name),
);

const TOP_LEVEL = [
  'bin/',
  'lib/',
  'functions/',
  'shared/',
  'local/',
  'test/',
  'scripts/',
  'clients/',
  'docs/',
];

/** Repository paths named in code spans: `shared/app/routes.ts`, `lib/constructs/`; not patterns (`<capability>`, `*`). */
function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g)].map((match) => match[1] ?? '');
  return [...new Set(spans)].filter(
    (span) => TOP_LEVEL.some((top) => span.startsWith(top)) && !/[<>*…{}]/.test(span),
  );
}

/** Relative link targets of a markdown page (no scheme, no pure anchor, none in code), without their anchors. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
  const targets = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
  return targets.filter((t) => !/^[a-z]+:/.test(t) && !t.startsWith('#')).map((t) => t.replace(/#.*$/, ''));
}

/** Section names cited after the map's file name: `docs/architecture.md, "The layers"`. */
function sectionsCited(text: string): string[] {
  return [...text.matchAll(/architecture\.md[,(\s*]*"([^"]+)"/g)].map((match) => match[1] ?? '');
}

/** The README, the docs pages and the TypeScript sources, where a citation of a section may hide. */
function citingFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) return name === 'dist' ? [] : walk(path);
      return /\.(ts|md)$/.test(name) ? [path] : [];
    });
  return [
    'README.md',
    ...['docs', 'shared', 'lib', 'functions', 'scripts', 'local', 'bin', 'test'].flatMap(walk),
  ];
}

describe('docs/architecture.md, the map', () => {
  it('is at most 300 lines', () => {
    expect(map.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('names only paths that exist', () => {
    const paths = namedPaths(map);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('links only to files that exist', () => {
    const links = relativeLinks(map);
    expect(links.length).toBeGreaterThan(20);
    expect(links.filter((link) => !existsSync(join(root, 'docs', link)))).toEqual([]);
  });

  it('is cited by section only under a heading it has (code comments and the other docs)', () => {
    const headings = new Set([...map.matchAll(/^#+ (.+)$/gm)].map((match) => match[1]));
    const cited = citingFiles().flatMap((path) =>
      sectionsCited(read(path)).map((section) => ({ path, section })),
    );
    expect(cited.filter(({ section }) => !headings.has(section))).toEqual([]);
  });

  it('finds a missing path, link or section (the checks can fail)', () => {
    expect(sectionsCited('(docs/architecture.md, "The layers") and docs/architecture.md\n * "Gone"')).toEqual(
      ['The layers', 'Gone'],
    );
    expect(namedPaths('see `shared/app/routes.ts`, `shared/<capability>/` and `lib/nowhere.ts`')).toEqual([
      'shared/app/routes.ts',
      'lib/nowhere.ts',
    ]);
    expect(
      relativeLinks('[a](decisions/0001-x.md#why) [b](https://example.com) [c](#here) `[d](e.md)`'),
    ).toEqual(['decisions/0001-x.md']);
  });
});

describe('docs/decisions/', () => {
  const index = read(`${decisionsDir}/README.md`);

  it('numbers its records without gaps or repeats', () => {
    const numbers = recordFiles.map((name) => Number(name.slice(0, 4)));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('lists every record in the index with its title and status', () => {
    for (const name of recordFiles) {
      const [heading = '', , statusLine = ''] = read(`${decisionsDir}/${name}`).split('\n');
      const title = heading.replace(/^# \d{4}\. /, '');
      const status = statusLine.replace(/^Status: /, '');
      expect(heading, name).toMatch(/^# \d{4}\. /);
      expect(statusLine, name).toMatch(/^Status: (Accepted|Superseded by \[\d{4}\])/);
      expect(index, name).toContain(`| [${name.slice(0, 4)}](${name}) | ${title} | ${status} |`);
    }
  });

  it('gives every record its sections, and a superseded one the record that replaced it', () => {
    for (const name of recordFiles) {
      const text = read(`${decisionsDir}/${name}`);
      for (const section of ['## Context', '## Decision', '## Consequences'])
        expect(text, name).toContain(section);
      const replacedBy = /^Status: Superseded by \[(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\)/m.exec(text);
      if (replacedBy) expect(recordFiles, name).toContain(replacedBy[2]);
    }
  });

  it('links only to files that exist', () => {
    for (const name of [...recordFiles, 'README.md']) {
      const links = relativeLinks(read(`${decisionsDir}/${name}`));
      expect(
        links.filter((link) => !existsSync(join(root, decisionsDir, link))),
        name,
      ).toEqual([]);
    }
  });
});
