/**
 * The contract and its documentation, served without a key: `GET /v1/openapi.json` (cacheable,
 * with an ETag), the reference page `/docs` (rendered by the server, Scalar on request) in
 * headless Chromium with every request that leaves the host blocked and no content security
 * policy violated, the error reference
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
import { expectAccessible } from '../support/console.ts';

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

  const operations = routeList.filter((route) => !route.internal);
  const schemas = Object.keys(
    (JSON.parse(committed) as { components: { schemas: object } }).components.schemas,
  );

  /** A page that records what it asks of other hosts, what it logs as a warning or an error, and its policy violations. */
  async function watchedPage(options: { javaScriptEnabled?: boolean } = {}) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
    const page = await context.newPage();
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
    return { context, page, outside, served, errors };
  }

  it("shows the first operation's heading in the first 1280×800 viewport, and every operation and schema of the contract, rendered by the server with no script, asking nothing of another host, logging nothing, axe-clean", async () => {
    const { context, page, outside, served, errors } = await watchedPage();
    const response = await page.goto(`${baseUrl}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
    await expect(page.title()).resolves.toBe('Company Register Data Service API reference');
    const first = page.getByRole('heading', {
      level: 3,
      name: operations[0]?.summary as string,
      exact: true,
    });
    const box = await first.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? Number.POSITIVE_INFINITY) + (box?.height ?? 0)).toBeLessThanOrEqual(800);
    expect(box?.y).toBeGreaterThanOrEqual(0);
    // Every operation as a heading of its own section, linked from the sidebar.
    const headings = await page.locator('section.operation > h3').allTextContents();
    expect(headings.sort()).toEqual(operations.map((route) => route.summary).sort());
    const nav = page.getByRole('navigation', { name: 'Operations' });
    // Counted in one call to the page (a call per operation took seconds).
    const linksTo = await nav.evaluate(
      (element, names) =>
        Object.fromEntries(
          names.map((name) => [name, element.querySelectorAll(`a[href="#${name}"]`).length]),
        ),
      operations.map((route) => route.name),
    );
    expect(linksTo).toEqual(Object.fromEntries(operations.map((route) => [route.name, 1])));
    expect(await page.locator('section[id^="schema-"] > h3').allTextContents()).toEqual(schemas);
    // Every link within the page leads somewhere on it.
    const dangling = (await page.evaluate(`[...document.querySelectorAll('a[href^="#"]')]
      .map((a) => a.getAttribute('href').slice(1))
      .filter((id) => !document.getElementById(id))`)) as string[];
    expect([...new Set(dangling)]).toEqual([]);
    expect(await page.locator('a[href^="#schema-"]').count()).toBeGreaterThan(schemas.length);
    await expect(
      page.getByRole('button', { name: 'Open the interactive reference (try requests)' }).isVisible(),
    ).resolves.toBe(true);
    expect(served).toEqual(['/docs']);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.evaluate('window.violations')).toEqual([]);
    await expectAccessible(page, 'docs', { fullPage: false });
    await context.close();
  }, 300_000);

  it('shows the same reference with scripts off, without the button that needs them', async () => {
    const { context, page } = await watchedPage({ javaScriptEnabled: false });
    await page.goto(`${baseUrl}/docs`);
    await expect(
      page
        .getByRole('heading', { level: 3, name: operations[0]?.summary as string, exact: true })
        .isVisible(),
    ).resolves.toBe(true);
    await expect(page.locator('section.operation').count()).resolves.toBe(operations.length);
    await expect(page.locator('#interactive').isVisible()).resolves.toBe(false);
    await context.close();
  }, 120_000);

  it('loads Scalar from the service on request, which renders the served document, asks nothing of another host and logs no warning, error or failed request', async () => {
    const { context, page, outside, served, errors } = await watchedPage();
    await page.goto(`${baseUrl}/docs`, { waitUntil: 'load' });
    expect(served).toEqual(['/docs']);
    await page.getByRole('button', { name: 'Open the interactive reference (try requests)' }).click();
    // Scalar's own rendering of the first operation (its group starts open), in place of the server's.
    await page.locator('#reference').waitFor({ state: 'detached', timeout: 240_000 });
    await page
      .getByText(operations[0]?.summary as string)
      .first()
      .waitFor({ timeout: 240_000 });
    await expect(page.getByRole('button', { name: 'Open Group' }).count()).resolves.toBeGreaterThan(5);
    await page.waitForLoadState('networkidle');
    expect(served).toEqual(expect.arrayContaining(['/docs', '/docs/scalar.js', '/v1/openapi.json']));
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    // One blocked call is expected and harmless: the schema library inside Scalar's bundle probes
    // once whether `new Function('')` works (to compile validators) and falls back when the policy
    // refuses it. No other violation, no inline script and no style is refused.
    expect(await page.evaluate('window.violations')).toEqual(['script-src eval ']);
    mkdirSync('.local', { recursive: true });
    await page.screenshot({ path: '.local/docs-interactive.png', timeout: 60_000 });
    await context.close();
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
