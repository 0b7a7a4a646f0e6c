/**
 * The console's pages where a customer's journey broke before (issue 39, findings 5 to 8), in
 * headless Chromium against the local stack: the endpoint editor keeps every subscription and
 * offers every type; Download saves the order's PDF and an offline search's results; the skip
 * link lands on the current view's main content on each of the nine views; a `=…` client
 * reference is inert in the exported fee ledger. Every page passes axe-core's WCAG 2.2 A/AA rules.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { baseUrl, buyExtract, call, createKey, type TestKey } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { expectAccessible as expectAccessibleIn, signInLink } from '../support/console.ts';
import { COMPANY_EVENT_TYPES } from '../support/monitoring.ts';
import { type OrderBody, settledResource } from '../support/orders.ts';
import { type Receiver, startReceiver } from '../support/webhooks.ts';

/** What an endpoint may subscribe to, written out as the tests expect it (spec 6.1, monitoring, `*`). */
const SUBSCRIBABLE = [
  '* (every event type, including types added later)',
  'order.ready',
  'order.failed',
  'offline_search.ready',
  'webhook_endpoint.test',
  ...COMPANY_EVENT_TYPES,
  'person.disqualified',
  'person.licence_granted',
];

let browser: Browser;
let page: Page;
let key: TestKey;
let receiver: Receiver;
const problems: string[] = [];

const expectAccessible = (name: string) => expectAccessibleIn(page, `pages-${name}`);

const heading = () => page.getByRole('heading', { level: 1 });

/** Opens a view afresh (a whole load, as from a bookmark) and waits until it has drawn. */
async function open(route: string, title: string) {
  await page.goto('about:blank');
  await page.goto(`${baseUrl}/console#/${route}`);
  await expect.poll(() => heading().innerText()).toBe(title);
  await expect.poll(() => page.locator('main .loading').count()).toBe(0);
}

const api = <T = Record<string, unknown>>(path: string, method = 'GET', body?: unknown) =>
  call<T>(path, { key: key.secret, method, ...(body === undefined ? {} : { body }) });

const checkboxes = () =>
  page
    .getByRole('group', { name: 'Event types' })
    .getByRole('checkbox')
    .evaluateAll((boxes) =>
      boxes.map((box) => ({
        name: (box.parentElement?.textContent ?? '').trim(),
        checked: (box as unknown as { checked: boolean }).checked,
      })),
    );
const ticked = async () => (await checkboxes()).filter((box) => box.checked).map((box) => box.name);

beforeAll(async () => {
  ({ browser } = await launchBrowser());
  key = await createKey('test');
  receiver = await startReceiver();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
  });
  expect((await page.goto(await signInLink(key.secret)))?.status()).toBe(200);
  await heading().filter({ hasText: 'Overview' }).waitFor();
});

afterAll(async () => {
  await receiver?.close();
  await browser?.close();
});

describe('the webhook endpoint editor', () => {
  it('offers every type the API accepts and *, and keeps types it did not set when saving', async () => {
    const created = await api<{ id: string }>('/v1/webhook-endpoints', 'POST', {
      url: receiver.url,
      enabledEvents: ['company.name_changed', 'company.deregistered'],
    });
    expect(created.status, created.text).toBe(201);
    const path = `/v1/webhook-endpoints/${created.body.id}`;
    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    expect((await checkboxes()).map((box) => box.name)).toEqual(SUBSCRIBABLE);
    expect(await ticked()).toEqual(['company.name_changed', 'company.deregistered']);
    expect(await page.getByRole('group', { name: 'Monitoring' }).getByRole('checkbox').count()).toBe(9);
    await expectAccessible('endpoint-event-types');

    await page.getByRole('checkbox', { name: 'order.ready', exact: true }).check();
    await page.getByRole('checkbox', { name: 'person.disqualified' }).check();
    await page.getByRole('button', { name: 'Save event types' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Event types saved.');
    expect((await api<{ enabledEvents: string[] }>(path)).body.enabledEvents).toEqual([
      'order.ready',
      'company.name_changed',
      'company.deregistered',
      'person.disqualified',
    ]);

    // Drawn again from the API: the same four ticked; unticking one drops that one only.
    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    expect(await ticked()).toEqual([
      'order.ready',
      'company.name_changed',
      'company.deregistered',
      'person.disqualified',
    ]);
    await page.getByRole('checkbox', { name: 'order.ready', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save event types' }).click();
    await expect
      .poll(async () => (await api<{ enabledEvents: string[] }>(path)).body.enabledEvents)
      .toEqual(['company.name_changed', 'company.deregistered', 'person.disqualified']);
  });

  it('shows an endpoint subscribed to * as such, and saving it keeps *', async () => {
    const created = await api<{ id: string }>('/v1/webhook-endpoints', 'POST', {
      url: receiver.url,
      enabledEvents: ['*'],
    });
    expect(created.status, created.text).toBe(201);
    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    expect(await ticked()).toEqual(['* (every event type, including types added later)']);
    await page.getByRole('button', { name: 'Save event types' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Event types saved.');
    const saved = await api<{ enabledEvents: string[] }>(`/v1/webhook-endpoints/${created.body.id}`);
    expect(saved.body.enabledEvents).toEqual(['*']);
    await open('webhooks', 'Webhooks');
    expect(await page.getByRole('table', { name: 'Endpoints' }).innerText()).toContain('* (every type)');
  });

  it('creates an endpoint subscribed to monitoring events only', async () => {
    await open('webhooks', 'Webhooks');
    const url = `${receiver.url}?monitoring`;
    await page.getByLabel('URL (HTTPS)').fill(url);
    for (const type of ['order.ready', 'order.failed', 'offline_search.ready'])
      await page.getByRole('checkbox', { name: type, exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'company.status_changed' }).check();
    await page.getByRole('checkbox', { name: 'person.licence_granted' }).check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.locator('.secret-value').waitFor();
    const listed = await api<{ data: { url: string; enabledEvents: string[] }[] }>('/v1/webhook-endpoints');
    expect(listed.body.data.find((endpoint) => endpoint.url === url)?.enabledEvents).toEqual([
      'company.status_changed',
      'person.licence_granted',
    ]);
    await expectAccessible('webhooks-create');
  });
});

describe('downloads on the Orders page', () => {
  it("saves a ready order's PDF", async () => {
    const placed = await api<OrderBody>(
      `/v1/companies/${SANDBOX.smallChargesExtract}/charges/extract-orders`,
      'POST',
      { delivery: { method: 'web' } },
    );
    expect(placed.status, placed.text).toBe(202);
    const order = await settledResource<OrderBody>(key.secret, `/v1/orders/${placed.body.id}`);
    expect(order.status).toBe('ready');
    await open('orders', 'Orders and offline searches');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: `Download ${order.id}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${order.id}.pdf`);
    const bytes = readFileSync((await download.path()) as string);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect.poll(() => page.getByRole('status').innerText()).toBe(`${order.id}.pdf downloaded.`);
    await expectAccessible('orders-download');
  }, 60_000);

  it("saves a ready offline search's every match, all pages of them", async () => {
    const placed = await api<{ id: string }>('/v1/companies/search/offline', 'POST', {
      q: SANDBOX.search.offline,
      delivery: { method: 'email', email: 'searches@example.com' },
    });
    expect(placed.status, placed.text).toBe(202);
    const search = await settledResource<{ id: string; status: string; resultCount: number }>(
      key.secret,
      `/v1/companies/search/offline/${placed.body.id}`,
    );
    expect(search.status).toBe('ready');
    expect(search.resultCount).toBe(180);
    await open('orders', 'Orders and offline searches');
    await page.getByLabel('Offline search id').fill(search.id);
    await page.getByRole('button', { name: 'Look up' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: `Download results ${search.id}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${search.id}-results.json`);
    const saved = JSON.parse(readFileSync((await download.path()) as string, 'utf8')) as { acn: string }[];
    const first = await api<{ data: { acn: string }[] }>(
      `/v1/companies/search/offline/${search.id}/results?limit=100`,
    );
    expect(saved).toHaveLength(180);
    expect(saved.slice(0, 100)).toEqual(first.body.data);
    await expectAccessible('offline-search-download');
  }, 60_000);
});

describe('the skip link', () => {
  it("moves focus to the current view's main content on each of the nine views", async () => {
    const endpoint = await api<{ id: string }>('/v1/webhook-endpoints', 'POST', {
      url: receiver.url,
      enabledEvents: ['order.ready'],
    });
    const monitor = await api<{ id: string }>('/v1/monitors', 'POST', { company: '990000014' });
    expect(monitor.status, monitor.text).toBe(201);
    // Something to reach in every view's content (the extracts view lists what is held).
    expect((await buyExtract(key.secret, '990000149', 'historical')).status).toBe(201);
    const views: [string, string][] = [
      ['', 'Overview'],
      ['extracts', 'Extracts'],
      ['orders', 'Orders and offline searches'],
      ['webhooks', 'Webhooks'],
      [`webhooks/${endpoint.body.id}`, 'Webhook endpoint'],
      ['monitors', 'Monitors'],
      [`monitors/${monitor.body.id}`, 'Monitor'],
      ['keys', 'API keys'],
      ['requests', 'Find a request'],
    ];
    const focused = () =>
      page.evaluate<{ tag: string; id: string; text: string; inHeader: boolean }>(
        `(() => { const a = document.activeElement; return { tag: a.tagName, id: a.id, text: a.textContent.trim(), inHeader: !!a.closest('header, .skip') }; })()`,
      );
    for (const [route, title] of views) {
      await open(route, title);
      await page.keyboard.press('Tab');
      expect(await focused(), route).toMatchObject({ tag: 'A', text: 'Skip to main content' });
      await page.keyboard.press('Enter');
      expect(await focused(), route).toMatchObject({ tag: 'MAIN', id: 'main' });
      expect(new URL(page.url()).hash, route).toBe(`#/${route}`);
      expect(await heading().innerText(), route).toBe(title);
      // The next Tab goes on from the view's content, past the header and its navigation.
      await page.keyboard.press('Tab');
      expect((await focused()).inHeader, route).toBe(false);
    }
  }, 90_000);
});

describe('the fee ledger CSV', () => {
  it('holds a client reference that looks like a formula as inert text', async () => {
    const reference = '=HYPERLINK("http://x.io","a")';
    const bought = await buyExtract(key.secret, '990000149', 'current', { 'X-Client-Reference': reference });
    expect(bought.status, bought.text).toBe(201);
    await open('', 'Overview');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export the fee ledger as CSV' }).click();
    const csv = readFileSync((await (await downloading).path()) as string, 'utf8');
    const line = csv.split('\r\n').find((row) => row.includes('HYPERLINK'));
    expect(line).toContain(',"\'=HYPERLINK(""http://x.io"",""a"")",req_');
  });
});

describe('the pages', () => {
  it('threw no error and logged none', () => {
    expect(problems).toEqual([]);
  });
});
