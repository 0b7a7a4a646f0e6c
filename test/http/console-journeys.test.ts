/**
 * The account console in headless Chromium (the one that comes with npm ci, test/support/browser.ts),
 * against the local stack, as a customer uses it: sign in by link, read the overview, export the
 * ledger as CSV, open an extract, create a webhook endpoint and see its secret once, send a test
 * event and watch its delivery appear, resend it, add a monitor and import a CSV after its dry run,
 * find an earlier request by its X-Request-Id, roll a key, sign out, and fail to reuse the link.
 * Every page passes axe-core's WCAG 2.2 A/AA rules, is reached by keyboard with a visible focus,
 * asks nothing of any other host and breaks no content security rule. Screenshots go to .local/.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, buyExtract, createKey, type TestKey } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { expectAccessible as expectAccessibleIn, keyAdmin, signInLink } from '../support/console.ts';
import { type Receiver, startReceiver } from '../support/webhooks.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let key: TestKey;
let link: string;
let receiver: Receiver;
const outside: string[] = [];
const problems: string[] = [];

const expectAccessible = (name: string) => expectAccessibleIn(page, `${name}`);

const heading = () => page.getByRole('heading', { level: 1 });

beforeAll(async () => {
  ({ browser } = await launchBrowser());
  key = await createKey('test');
  expect((await buyExtract(key.secret, '990000149', 'historical')).status).toBe(201);
  receiver = await startReceiver();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  const host = new URL(baseUrl).host;
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.host === host) return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
  });
});

afterAll(async () => {
  await receiver?.close();
  await browser?.close();
});

describe('the account console in a browser', () => {
  it('answers a never-issued link with the "does not work" page (404), never JSON', async () => {
    const response = await page.goto(`${baseUrl}/console/sign-in?token=${'A'.repeat(43)}&utm_source=mail`);
    expect(response?.status()).toBe(404);
    expect(await heading().innerText()).toBe('This sign-in link does not work');
    await expectAccessible('link-unknown');
  });

  it('signs in by link to the overview, marked as test data, after a link scanner fetched it', async () => {
    link = await signInLink(key.secret);
    // A mail or chat scanner fetches the link first (a GET, as any scanner does): nothing is spent.
    const scanned = await fetch(link);
    expect(scanned.status).toBe(200);
    const response = await page.goto(`${link}&utm_source=mail`);
    expect(response?.status()).toBe(200);
    expect(await heading().innerText()).toBe('Sign in to the account console');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await expectAccessible('link-page');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/console');
    await expect.poll(() => heading().innerText()).toBe('Overview');
    await page.getByRole('table', { name: 'Spend by product this month' }).waitFor();
    expect(await page.locator('.test-banner').innerText()).toContain('Test data');
    expect(await page.locator('.env').innerText()).toBe('TEST');
    expect(await page.title()).toBe('Overview · Account console (test data)');
    const totals = await page.getByRole('table', { name: 'Spend by product this month' }).innerText();
    expect(totals).toContain('Historical company extracts');
    await expectAccessible('overview');
  });

  it('exports the fee ledger of this month as CSV', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export the fee ledger as CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`ledger-${new Date().toISOString().slice(0, 7)}.csv`);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'at,product,feeCode,quantity,billable,clientReference,requestId,resourceId,unitAmountCents,amountCents,currency,priceVersion',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^20\d\d-[^,]+,company_extract[a-z_]*,[^,]*,1,false,,req_[^,]+,ext_/);
  });

  it('is used by keyboard alone, with a visible focus', async () => {
    // Evaluated in the page (strings: this project's types have no DOM).
    const focused = () =>
      page.evaluate<{ text: string; tag: string; outline: string }>(
        `(() => { const a = document.activeElement; const s = getComputedStyle(a); return { text: a.textContent, tag: a.tagName, outline: s.outlineStyle + ' ' + s.outlineWidth }; })()`,
      );
    await page.goto(`${baseUrl}/console`);
    await page.getByRole('table', { name: 'Spend by product this month' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ text: 'Skip to main content', tag: 'A', outline: 'solid 3px' });
    for (let i = 0; i < 15 && (await focused()).text !== 'Extracts'; i += 1) await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ text: 'Extracts', tag: 'A', outline: 'solid 3px' });
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().innerText()).toBe('Extracts');
    await page.getByRole('table', { name: 'Held extracts, newest first' }).waitFor();
    expect((await focused()).tag).toBe('H1');
    const row = await page.getByRole('table', { name: 'Held extracts, newest first' }).innerText();
    expect(row).toContain('Company (historical)');
    await expectAccessible('extracts');
    await page
      .getByRole('button', { name: /^Open extract ext_/ })
      .first()
      .press('Enter');
    const json = page.locator('pre.json');
    await json.waitFor();
    expect(JSON.parse(await json.innerText())).toMatchObject({
      object: 'extract',
      kind: 'company',
      type: 'historical',
    });
    await expectAccessible('extract-open');
  });

  it('shows orders, and offline searches by id', async () => {
    await page.getByRole('link', { name: 'Orders' }).click();
    await expect.poll(() => heading().innerText()).toBe('Orders and offline searches');
    await expectAccessible('orders');
  });

  it('creates a webhook endpoint and shows its secret once', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => heading().innerText()).toBe('Webhooks');
    await page.getByLabel('URL (HTTPS)').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('console journey');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = await page.locator('.secret-value').innerText();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible('webhooks');
    await page.reload();
    await page.getByRole('table', { name: 'Endpoints' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByRole('table', { name: 'Endpoints' }).innerText()).toContain(receiver.url);
  });

  it('sends a test event, watches its delivery appear, and resends it', async () => {
    await page.getByRole('link', { name: /^Manage/ }).click();
    await expect.poll(() => heading().innerText()).toBe('Webhook endpoint');
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await receiver.waitFor(1);
    const deliveries = page.getByRole('table', { name: 'Deliveries, newest first, with every attempt' });
    await expect.poll(() => deliveries.innerText(), { timeout: 15_000 }).toMatch(/succeeded/);
    expect(await deliveries.innerText()).toContain('200');
    await expectAccessible('endpoint');
    await page
      .getByRole('button', { name: /^Resend / })
      .first()
      .click();
    await receiver.waitFor(2);
    await expect.poll(async () => page.locator('ol.attempts li').count(), { timeout: 15_000 }).toBe(2);
    expect(await page.locator('ol.attempts').innerText()).toContain('resent');
  });

  it('adds a monitor, checks a CSV with a bad row by a dry run, then imports it', async () => {
    await page.getByRole('link', { name: 'Monitors' }).click();
    await expect.poll(() => heading().innerText()).toBe('Monitors');
    await page.getByLabel('Company', { exact: true }).last().fill('990 000 014');
    await page.getByRole('checkbox', { name: 'company.status_changed' }).check();
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await expect
      .poll(() => page.locator('.success').innerText())
      .toMatch(/^Now watching 990 000 014 .+ \(mon_/);
    const list = page.getByRole('table', { name: 'Monitors, page 1' });
    await expect.poll(() => list.innerText()).toContain('company.status_changed');

    await page.getByLabel('CSV', { exact: true }).fill('company\n990000149\n123456789\n990000014\n');
    await page.getByRole('button', { name: 'Check rows (dry run)' }).click();
    const dry = page.getByRole('table', { name: 'Rows that would not be created' });
    await dry.waitFor();
    expect(await page.locator('.import-summary').innerText()).toBe(
      'Dry run of 3 rows: 1 would be created, 1 already watched, 1 invalid, 0 duplicates, 0 over the limit. Nothing was created.',
    );
    const rows = (await dry.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t').slice(0, 2));
    expect(rows).toEqual([
      ['2', 'Invalid'],
      ['3', 'Already watched'],
    ]);
    expect(await dry.innerText()).toContain('acn_invalid (company)');
    // Nothing yet: one monitor until the commit.
    expect(await list.locator('tbody tr').count()).toBe(1);
    await expectAccessible('monitors-dry-run');

    // The commit, by keyboard, with a visible focus.
    const focused = () =>
      page.evaluate<{ text: string; outline: string }>(
        `(() => { const a = document.activeElement; const s = getComputedStyle(a); return { text: a.textContent, outline: s.outlineStyle + ' ' + s.outlineWidth }; })()`,
      );
    await page.getByRole('button', { name: 'Check rows (dry run)' }).focus();
    for (let i = 0; i < 5 && (await focused()).text !== 'Import 1 monitor'; i += 1)
      await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ text: 'Import 1 monitor', outline: 'solid 3px' });
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('.import-summary').innerText())
      .toBe(
        'Imported 3 rows: 1 monitor created, 1 already watched, 1 invalid, 0 duplicates, 0 over the limit.',
      );
    await expect.poll(() => list.locator('tbody tr').count()).toBe(2);
    await expectAccessible('monitors');

    await page.getByLabel('Company', { exact: true }).first().fill('990000149');
    await page.getByRole('button', { name: 'Filter' }).click();
    const filtered = page.getByRole('table', { name: 'Monitors of 990000149' });
    await expect.poll(() => filtered.locator('tbody tr').count()).toBe(1);
    await filtered.getByRole('link', { name: /^Recent changes/ }).click();
    await expect.poll(() => heading().innerText()).toBe('Monitor');
    // Imported: the company by its number until the first daily check names it.
    await expect
      .poll(() => page.locator('.facts').innerText())
      .toMatch(/^Watching\s+990000149 \(named after its first daily check\)\s+Monitor\s+mon_/);
    expect(await page.getByRole('heading', { name: 'Recent changes' }).count()).toBe(1);
    await expectAccessible('monitor');
  }, 90_000);

  it('finds an earlier request by its X-Request-Id, and not one of another account', async () => {
    const earlier = await fetch(`${baseUrl}/v1/companies/123456789`, {
      headers: { Authorization: `Bearer ${key.secret}` },
    });
    expect(earlier.status).toBe(400);
    const requestId = earlier.headers.get('x-request-id') as string;
    await page.getByRole('link', { name: 'Requests' }).click();
    await expect.poll(() => heading().innerText()).toBe('Find a request');
    await page.getByLabel('X-Request-Id').fill(requestId);
    await page.getByLabel('X-Request-Id').press('Enter');
    const facts = page.locator('dl.facts');
    await expect.poll(() => facts.innerText()).toContain(requestId);
    const text = await facts.innerText();
    expect(text).toContain('GET /v1/companies/123456789 (GetCompany)');
    expect(text).toMatch(/Status\s+400/);
    expect(text).toMatch(/Error code\s+acn_invalid/);
    await expectAccessible('requests');

    const stranger = await createKey('test');
    const theirs = await fetch(`${baseUrl}/v1/usage`, {
      headers: { Authorization: `Bearer ${stranger.secret}` },
    });
    await page.getByLabel('X-Request-Id').fill(theirs.headers.get('x-request-id') as string);
    await page.getByRole('button', { name: 'Find' }).click();
    await expect
      .poll(() => page.locator('[role="alert"]').innerText())
      .toMatch(/^No request req_.+ of this account's test environment in the last 30 days\.$/);
    await expectAccessible('requests-not-found');
  }, 60_000);

  it('keeps the page moved to last when an earlier one answers after it', async () => {
    // The Overview's usage reports are held until the Keys page has drawn, then answered.
    const usage = (url: URL) => url.pathname === '/v1/usage';
    let release = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    await page.route(usage, async (route) => {
      await held;
      await route.fallback();
    });
    let finished = 0;
    const bothAnswered = new Promise<void>((done) => {
      page.on('requestfinished', (request) => {
        if (usage(new URL(request.url())) && ++finished === 2) done();
      });
    });
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    await page.getByRole('table', { name: 'Keys, newest first' }).waitFor();
    release();
    await bothAnswered;
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    await page.unroute(usage);
    expect(await heading().innerText()).toBe('API keys');
    expect(await page.getByRole('table', { name: 'Keys, newest first' }).count()).toBe(1);
    expect(await page.title()).toMatch(/^API keys · /);
  });

  it('rolls a key after a confirmation, showing the new secret once', async () => {
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    await expect.poll(() => heading().innerText()).toBe('API keys');
    await page.getByRole('table', { name: 'Keys, newest first' }).waitFor();
    await page.getByRole('button', { name: `Roll ${key.keyId}` }).click();
    await page.getByLabel('Grace period', { exact: true }).selectOption('24h');
    await expectAccessible('keys-confirm');
    await page.getByRole('button', { name: 'Roll key', exact: true }).click();
    const secret = await page.locator('.secret-value').innerText();
    expect(secret).toMatch(/^sk_test_/);
    const { audit } = await keyAdmin.list(key.accountId);
    expect(audit.map((record) => record.action)).toEqual(['signed_in', 'rotated']);
  });

  it('signs out, and the link does not sign in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => heading().innerText()).toBe('You are signed out');
    await expectAccessible('signed-out');
    const again = await page.goto(link);
    expect(again?.status()).toBe(410);
    expect(await heading().innerText()).toBe('This sign-in link has been used');
    await expectAccessible('link-used');
    const console = await page.goto(`${baseUrl}/console`);
    expect(console?.status()).toBe(200);
    await expect.poll(() => heading().innerText()).toBe('You are signed out');
  });

  it('asked nothing of any other host, and broke no content security rule', () => {
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
