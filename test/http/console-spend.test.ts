/**
 * Money on the console's overview, in headless Chromium against the local stack: this month's spend
 * in dollars by product with people's names for them, the 30-day chart drawn as SVG with its text
 * alternative, the ledger CSV with amounts, and a test key's amounts marked as not billed. Every
 * state passes axe-core's WCAG 2.2 A/AA rules; screenshots go to .local/.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { buyExtract, createKey } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { expectAccessible, openConsole } from '../support/console.ts';

let browser: Browser;
/** The usage report's calls the last overview made, by their query. */
let usageCalls: URLSearchParams[] = [];

/** A signed-in overview of the key's account, in en-US (amounts in AUD read `A$…`). */
async function overviewOf(secret: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  usageCalls = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/v1/usage')) usageCalls.push(url.searchParams);
  });
  await openConsole(page, secret);
  await page.getByRole('table', { name: 'Spend by product this month' }).waitFor();
  return page;
}

beforeAll(async () => {
  ({ browser } = await launchBrowser());
});

afterAll(async () => {
  await browser?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

describe('spend on the console overview', () => {
  it("shows a live account this month's spend in dollars by product, and the 30-day chart with its table", async () => {
    const key = await createKey('live');
    // The example prices: 25.00 a current company extract, 35.00 a relational one.
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'current')).status).toBe(201);
    expect((await buyExtract(key.secret, SANDBOX.relational, 'current')).status).toBe(201);
    expect((await buyExtract(key.secret, SANDBOX.relational, 'relational')).status).toBe(201);
    const page = await overviewOf(key.secret);

    expect(await page.locator('.spend').innerText()).toBe(
      'A$85.00 spent this month. Nothing on the same days of last month.',
    );
    expect(await page.locator('.pricing-note').innerText()).toBe(
      'Billed to the account at the prices in force when each purchase was made. These are example prices, not the prices of a live account.',
    );
    const byProduct = page.getByRole('table', { name: 'Spend by product this month' });
    expect(await byProduct.locator('tbody tr').allInnerTexts()).toStrictEqual([
      'Current company extracts\t2\tA$50.00',
      'Company relationship extracts\t1\tA$35.00',
    ]);
    // People's names only: no product id or fee code anywhere on the page.
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/company_extract|company_relationships|955A|955B/);
    expect(
      await page.getByRole('img', { name: /^Spend by product this month/ }).getAttribute('aria-label'),
    ).toBe(
      'Spend by product this month: Current company extracts A$50.00, Company relationship extracts A$35.00',
    );

    // The chart: one column per day, its label summing it up, described by the day table.
    const chart = page.getByRole('img', { name: /^Spend per day, the last 30 days/ });
    expect(await chart.getAttribute('aria-label')).toBe(
      `Spend per day, the last 30 days: A$85.00 in all, the most on ${today()} (A$85.00).`,
    );
    expect(await chart.locator('rect').count()).toBe(30);
    expect(await chart.getAttribute('aria-describedby')).toBe('spend-per-day');
    await page.getByText('The 30 days as a table').click();
    const perDay = page.getByRole('table', { name: 'Spend per day, the last 30 days' });
    const rows = await perDay.locator('tbody tr').allInnerTexts();
    expect(rows).toHaveLength(30);
    expect(rows[29]).toBe(`${today()}\t3\tA$85.00`);
    expect(rows[0]).toMatch(/^\d{4}-\d{2}-\d{2}\t0\tA\$0\.00$/);
    // Two bounded reports drew it (this month's amounts; the per-day sums from the first of last
    // month, for its same days and the 30-day chart), never the entries page by page.
    const lastMonthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1));
    expect(
      usageCalls.map((query) => [
        query.get('from'),
        query.get('to'),
        query.get('limit'),
        query.has('cursor'),
      ]),
    ).toStrictEqual([
      [`${today().slice(0, 8)}01`, today(), '1', false],
      [lastMonthStart.toISOString().slice(0, 10), today(), '1', false],
    ]);
    await expectAccessible(page, 'overview-spend');

    // The ledger CSV carries each entry's amount, currency and price version.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export the fee ledger as CSV' }).click();
    const csv = readFileSync((await (await downloading).path()) as string, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'at,product,feeCode,quantity,billable,clientReference,requestId,resourceId,unitAmountCents,amountCents,currency,priceVersion',
    );
    expect(lines.slice(1).map((line) => line.split(',').slice(8).join(','))).toStrictEqual([
      '2500,2500,AUD,2020-01-01',
      '2500,2500,AUD,2020-01-01',
      '3500,3500,AUD,2020-01-01',
    ]);
    await page.context().close();
  });

  it('shows a test key what the same use would have cost, marked as not billed', async () => {
    const key = await createKey('test');
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'historical')).status).toBe(201);
    const page = await overviewOf(key.secret);
    expect(await page.locator('.spend').innerText()).toBe(
      'A$40.00 of use this month, not billed. Nothing on the same days of last month.',
    );
    expect(await page.locator('.pricing-note').innerText()).toBe(
      'Not billed: test keys are free. The amounts are what the same use would have cost with live keys. These are example prices, not the prices of a live account.',
    );
    expect(
      await page
        .getByRole('table', { name: 'Spend by product this month' })
        .locator('tbody tr')
        .allInnerTexts(),
    ).toStrictEqual(['Historical company extracts\t1\tA$40.00']);
    await expectAccessible(page, 'overview-spend-test');
    await page.context().close();
  });
});
