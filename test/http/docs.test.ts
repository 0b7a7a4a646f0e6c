/**
 * The contract and its documentation, served without a key: `GET /v1/openapi.json` (cacheable,
 * with an ETag), the reference page `/docs` rendered by Scalar in headless Chromium with every
 * request that leaves the host blocked and no content security policy violated, the error reference
 * `/docs/errors`, and the headers every documentation response carries.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceErrors } from '../../shared/app/errors.ts';
import { routeList } from '../../shared/app/routes.ts';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../shared/docs/pages.ts';
import { SECURITY_HEADERS } from '../../shared/kernel/http/security-headers.ts';
import { baseUrl, call } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';

const committed = readFileSync('docs/openapi.json', 'utf8');
/** The committed document without its indentation, as the service sends it. */
const compact = JSON.stringify(JSON.parse(committed));

describe('GET /v1/openapi.json', () => {
  it('serves docs/openapi.json without a key, cacheable, with an ETag', async () => {
    const response = await call('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('ratelimit-limit')).toBe('600');
    expect(response.text).toBe(compact);
    expect(response.text.length).toBeLessThan(committed.length / 2);
  });

  it('answers 304 with no body to a matching If-None-Match, and 200 to a stale one', async () => {
    const first = await call('/v1/openapi.json');
    const etag = first.headers.get('etag') as string;
    const again = await call('/v1/openapi.json', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const stale = await call('/v1/openapi.json', { headers: { 'If-None-Match': '"0000"' } });
    expect(stale.status).toBe(200);
  });

  it('ignores an API key, even a wrong one (nothing to authorise)', async () => {
    const response = await call('/v1/openapi.json', { key: 'sk_test_nobody' });
    expect(response.status).toBe(200);
  });

  it('takes no query parameters', async () => {
    const response = await call('/v1/openapi.json?format=yaml');
    expect(response.status).toBe(422);
  });
});

describe('GET /docs/errors', () => {
  it('has one entry per catalogue code, with its cause and fix', async () => {
    const response = await fetch(`${baseUrl}/docs/errors`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    const asHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const [code, entry] of Object.entries(serviceErrors)) {
      expect(html.match(new RegExp(`<tr id="${code}">`, 'g')), code).toHaveLength(1);
      expect(html).toContain(asHtml(entry.cause));
      expect(html).toContain(asHtml(entry.fix));
    }
  });
});

describe('the API reference page /docs', () => {
  let browser: Browser;
  beforeAll(async () => {
    ({ browser } = await launchBrowser());
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders every operation of the contract from the served document, asks nothing of any other host, and logs no warning, error or failed request', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const host = new URL(baseUrl).host;
    const outside: string[] = [];
    const served: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
      if (url.host !== host) {
        outside.push(url.href);
        return route.abort('blockedbyclient');
      }
      served.push(url.pathname);
      return route.continue();
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Scalar logs its timings as `info`; a warning (such as "document validation errors") or an
    // error, or a request answered 4xx/5xx (a missing favicon included), fails the page.
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error')
        errors.push(`${message.type()}: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });

    // Every violation of the page's content security policy, as the page itself sees it.
    await page.addInitScript({
      content: `window.violations = [];
        document.addEventListener('securitypolicyviolation', (event) => {
          window.violations.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sample);
        });`,
    });

    const response = await page.goto(`${baseUrl}/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
    await expect(page.title()).resolves.toBe('Company Register Data Service API reference');
    await page
      .getByText(routeList[0]?.summary as string)
      .first()
      .waitFor();
    // Groups after the first start closed (Scalar draws an operation when its group opens): open
    // every one, as a reader would, and every operation must be there.
    const closedGroups = page.getByRole('button', { name: 'Open Group' });
    const groups = await closedGroups.count();
    expect(groups).toBeGreaterThan(5);
    for (let opened = 0; opened < groups; opened++) await closedGroups.first().click();
    await expect(closedGroups.count()).resolves.toBe(0);
    const text = await page.locator('body').innerText();

    for (const route of routeList.filter((r) => !r.internal))
      expect(text, route.name).toContain(route.summary);
    expect(served).toEqual(expect.arrayContaining(['/docs', '/docs/scalar.js', '/v1/openapi.json']));
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    // One blocked call is expected and harmless: the schema library inside Scalar's bundle probes
    // once whether `new Function('')` works (to compile validators) and falls back when the policy
    // refuses it. No other violation, no inline script and no style is refused.
    expect(await page.evaluate('window.violations')).toEqual(['script-src eval ']);
    mkdirSync('.local', { recursive: true });
    await page.screenshot({ path: '.local/docs.png', timeout: 60_000 });
    await page.close();
    // Not a speed check (the bench times the page): room for a loaded machine.
  }, 300_000);

  it('serves the script gzipped, with an ETag', async () => {
    const response = await fetch(`${baseUrl}/docs/scalar.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await response.text()).length).toBeGreaterThan(1_000_000);
  });
});

describe("the documentation pages' headers", () => {
  it("allow scripts from the deployment and the page's own (by hash) only, nothing from elsewhere, never framed", () => {
    const directives = new Map(
      DOCS_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')?.[0]).toBe("'self'");
    expect(directives.get('script-src')?.slice(1)).toEqual([
      expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/),
    ]);
    // Scalar injects its stylesheets as <style> elements without a nonce: inline styles stay.
    expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    // Nothing but the deployment itself (and data: images and fonts) is named as a source.
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*/);
  });

  it.each([
    ['/docs', 'text/html; charset=utf-8', true],
    ['/docs/errors', 'text/html; charset=utf-8', true],
    ['/docs/scalar.js', 'text/javascript; charset=utf-8', true],
    ['/v1/openapi.json', 'application/json; charset=utf-8', false],
  ])("%s carries HSTS and nosniff (and the pages' policy: %s)", async (path, contentType, policy) => {
    for (const request of [{}, { headers: { 'If-None-Match': 'x' } }]) {
      const response = await fetch(`${baseUrl}${path}`, request);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(contentType);
      expect(response.headers.get('strict-transport-security')).toBe(
        SECURITY_HEADERS['Strict-Transport-Security'],
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      if (policy) {
        expect(response.headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
        expect(response.headers.get('x-frame-options')).toBe('DENY');
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      }
    }
    // A revalidation answered 304 carries them too.
    const etag = (await fetch(`${baseUrl}${path}`)).headers.get('etag') as string;
    const revalidated = await fetch(`${baseUrl}${path}`, { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('x-content-type-options')).toBe('nosniff');
    expect(revalidated.headers.get('strict-transport-security')).toBe(
      SECURITY_HEADERS['Strict-Transport-Security'],
    );
    if (policy) expect(revalidated.headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
  });
});
