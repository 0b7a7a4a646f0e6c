/**
 * The console's committed script is what `npm run console:build` makes of shared/console/client/
 * today, and the page obeys its own content security policy: no inline script or style, nothing
 * from another host. (Its size budget is in `npm run bench`.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildConsoleScript } from '../../scripts/build-console.ts';
import {
  CONSOLE_HEADERS,
  CONTENT_SECURITY_POLICY,
  consolePage,
  signInProblemPage,
} from '../../shared/console/pages.ts';
import { CONSOLE_SCRIPT, CONSOLE_STYLES } from '../../shared/console/routes.ts';

describe('the console bundle', () => {
  it('is up to date (run npm run console:build after changing shared/console/client/)', async () => {
    expect(readFileSync(CONSOLE_SCRIPT, 'utf8')).toBe(await buildConsoleScript());
  }, 30_000);

  it('loads nothing from another host, and evaluates no strings', () => {
    const script = readFileSync(CONSOLE_SCRIPT, 'utf8');
    // The SVG namespace is a name, the URL field's placeholder a hint, and SimpleWebAuthn's warning
    // for a misused call names its documentation page: not requests.
    const names = script
      .replaceAll('http://www.w3.org/2000/svg', '')
      .replaceAll('placeholder:"https://example.com/hooks"', '')
      .replaceAll(/See https:\/\/simplewebauthn\.dev\/docs\/[^\s"'`]+/g, '');
    expect(names.match(/https?:\/\/[^\s"'`]+/g) ?? []).toEqual([]);
    expect(script).not.toMatch(/\beval\(|new Function\(|innerHTML/);
    expect(readFileSync(CONSOLE_STYLES, 'utf8')).not.toMatch(/@import|url\(/);
  });
});

describe('the console pages', () => {
  it('have no inline script or style, and only relative links to the deployment', () => {
    for (const html of [
      consolePage(),
      signInProblemPage('used'),
      signInProblemPage('expired'),
      signInProblemPage('invalid'),
    ]) {
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
  });

  it('are sent with a strict policy: own scripts and styles only, never framed, HTTPS only', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(CONSOLE_HEADERS).toMatchObject({
      'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    });
  });
});
