/**
 * The contract and its documentation, served without a key: `GET /v1/openapi.json` (cacheable,
 * with an ETag), the reference page `/docs` rendered by Scalar in headless Chromium with every
 * request that leaves the host blocked, and the error reference `/docs/errors`.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../shared/app/routes.ts';
import { errorCatalogue } from '../../shared/kernel/errors/catalogue.ts';
import { errorGuide } from '../../shared/kernel/errors/guide.ts';
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
    for (const code of Object.keys(errorCatalogue) as (keyof typeof errorGuide)[]) {
      expect(html.match(new RegExp(`<tr id="${code}">`, 'g')), code).toHaveLength(1);
      expect(html).toContain(asHtml(errorGuide[code].cause));
      expect(html).toContain(asHtml(errorGuide[code].fix));
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

    const response = await page.goto(`${baseUrl}/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    await page
      .getByText(routeList[0]?.summary as string)
      .first()
      .waitFor();
    const text = await page.locator('body').innerText();

    for (const route of routeList.filter((r) => !r.internal))
      expect(text, route.name).toContain(route.summary);
    expect(served).toEqual(expect.arrayContaining(['/docs', '/docs/scalar.js', '/v1/openapi.json']));
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    mkdirSync('.local', { recursive: true });
    await page.screenshot({ path: '.local/docs.png', timeout: 60_000 });
    await page.close();
    // Not a speed check (the bench times the page): room for a loaded machine.
  }, 120_000);

  it('serves the script gzipped, with an ETag', async () => {
    const response = await fetch(`${baseUrl}/docs/scalar.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await response.text()).length).toBeGreaterThan(1_000_000);
  });
});
