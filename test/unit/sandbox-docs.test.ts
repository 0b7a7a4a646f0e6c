import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SANDBOX_ORGANISATION_CATALOGUE,
  SANDBOX_PEOPLE_CATALOGUE,
} from '../../shared/adapters/sandbox/data/catalogue.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { SANDBOX_PEOPLE } from '../../shared/adapters/sandbox/data/people.ts';
import { sandboxDataset } from '../../shared/composition/registry/sandbox.ts';
import {
  sandboxOrganisationsPart,
  sandboxPeoplePart,
  withGeneratedSandbox,
} from '../../shared/composition/registry/sandbox-docs.ts';
import { renderPart } from '../../shared/kernel/markdown.ts';

const page = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');

describe('docs/sandbox.md', () => {
  it('has its organisation and people tables exactly as npm run docs:sandbox writes them from the catalogue', () => {
    // On failure: run `npm run docs:sandbox` and commit the page with the catalogue change.
    expect(withGeneratedSandbox(page), 'docs/sandbox.md is out of date: run npm run docs:sandbox').toBe(page);
  });

  it('holds each generated table once, between its markers, beside the hand-written prose', () => {
    for (const part of [sandboxOrganisationsPart, sandboxPeoplePart]) {
      expect(page.split(part.start)).toHaveLength(2);
      expect(page.split(part.end)).toHaveLength(2);
      expect(page).toContain(renderPart(part));
    }
    expect(page).toContain('## Numbers that find nothing');
    expect(page).toContain('How people searches match');
  });

  it('renders each row from the dataset and the catalogue', () => {
    const organisations = sandboxOrganisationsPart.render();
    expect(organisations).toMatch(
      /^\| `990 000 014` +\| `23 990 000 014` \| BLUEGUM ORCHARDS PTY LTD +\| `proprietary`, `noCharges`\. APTY, REGD\. /m,
    );
    expect(organisations).toMatch(
      /^\| `990 000 130` +\| none recorded +\| CARRINGTON & SONS PTY LIMITED +\| /m,
    );
    expect(organisations).toMatch(
      /^\| `990 010 010` to `990 011 204` \| from the ACN +\| ACME WIDGETS 001 PTY LTD to ACME WIDGETS 120 PTY LTD +\| 120 small/m,
    );
    const people = sandboxPeoplePart.render();
    expect(people).toMatch(
      /^\| `990100003` +\| KOWALSKI, ANNA MARIA +\| `namesakes` \(2 of 3\)\. Born 1971-09-30\./m,
    );
    expect(people).toMatch(/^\| `990101001`–`990101120` \| CITIZEN, JOHN ALAN … JOY KAY +\| `citizens`\. /m);
    expect(people).toMatch(/^\| `990199999` +\| +\| `unknownIdentifier`\. /m);
  });
});

describe('the sandbox catalogue', () => {
  it('describes every sandbox case that names an organisation, and every people case', () => {
    const dataset = sandboxDataset();
    const organisations = sandboxOrganisationsPart.render();
    const named = Object.entries(SANDBOX).filter(
      ([, value]) => typeof value === 'string' && dataset.byNumber.has(value),
    );
    expect(named.length).toBe(28);
    for (const [name] of named) expect(organisations, name).toContain(`\`${name}\``);
    expect(SANDBOX_ORGANISATION_CATALOGUE).toHaveLength(27);

    const described = SANDBOX_PEOPLE_CATALOGUE.map((entry) => entry.case).sort();
    const cases = Object.keys(SANDBOX_PEOPLE)
      .filter((name) => name !== 'search')
      .sort();
    expect(described).toEqual(cases);
  });

  it('refuses a page without the markers', () => {
    expect(() => withGeneratedSandbox('# Sandbox\n')).toThrow(/docs\/sandbox\.md needs the markers/);
  });
});
