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
import { baseUrl, buyExtract, call, createKey, revokeKey, type TestKey } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import {
  expectAccessible as expectAccessibleIn,
  keyAdmin,
  openConsole,
  signIn,
  withSession,
} from '../support/console.ts';
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
  'spend_cap.threshold_reached',
  ...COMPANY_EVENT_TYPES,
  'person.disqualified',
  'person.licence_granted',
];

const VIEWER_ZONE = 'Australia/Sydney';

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
  // Generous waits: on a loaded machine a whole load may take seconds.
  await expect.poll(() => heading().innerText(), { timeout: 15_000 }).toBe(title);
  await expect.poll(() => page.locator('main .loading').count(), { timeout: 15_000 }).toBe(0);
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
  // A viewer in Sydney: times show in their zone, with UTC beside them.
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
    timezoneId: VIEWER_ZONE,
    locale: 'en-AU',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
  });
  await openConsole(page, key.secret);
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
    // The looked-up search's own table (the list of searches may show it too, once it has loaded).
    await page
      .getByRole('table', { name: 'Offline search', exact: true })
      .getByRole('button', { name: `Download results ${search.id}` })
      .click();
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

const NBSP = '\u00a0';

/** `2026-11-28T01:02:03Z` as the page shows it in Sydney: local time, then UTC's (with its date if other). */
function shownInSydney(iso: string): string {
  const local = new Date(iso).toLocaleString('sv-SE', { timeZone: VIEWER_ZONE }).slice(0, 16);
  const utc =
    local.slice(0, 10) === iso.slice(0, 10)
      ? iso.slice(11, 16)
      : `${iso.slice(0, 10)}${NBSP}${iso.slice(11, 16)}`;
  const zone = new Intl.DateTimeFormat('en-AU', { timeZone: VIEWER_ZONE, timeZoneName: 'short' })
    .formatToParts(new Date(iso))
    .find((part) => part.type === 'timeZoneName')?.value;
  return `${local.replace(' ', NBSP)}${NBSP}${zone} (${utc}${NBSP}UTC)`;
}

const dialog = () => page.getByRole('dialog');
const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');
/** A JSON answer without its request id (each read has its own). */
const sameRead = (text: string) => {
  const { meta, ...rest } = JSON.parse(text) as { meta: Record<string, unknown> };
  return { ...rest, meta: { ...meta, requestId: expect.stringMatching(/^req_/) } };
};
const activeText = () => page.evaluate<string>('document.activeElement.textContent');

describe('the Orders page', () => {
  it('shows each order’s product, company, delivery and reference, and lists offline searches with their results', async () => {
    const placed = await call<OrderBody>(
      `/v1/companies/${SANDBOX.smallChargesExtract}/charges/extract-orders`,
      {
        key: key.secret,
        method: 'POST',
        body: { delivery: { method: 'email', email: 'charges@example.com' } },
        headers: { 'X-Client-Reference': 'PO-4411' },
      },
    );
    expect(placed.status, placed.text).toBe(202);
    const order = await settledResource<OrderBody>(key.secret, `/v1/orders/${placed.body.id}`);
    const company = order.company as { name: string; formatted: string };
    const searched = await call<{ id: string }>('/v1/companies/search/offline', {
      key: key.secret,
      method: 'POST',
      body: { q: SANDBOX.search.offline, delivery: { method: 'webhook' } },
      headers: { 'X-Client-Reference': 'names-1' },
    });
    expect(searched.status, searched.text).toBe(202);
    const search = await settledResource<{ id: string; status: string; q: string; createdAt: string }>(
      key.secret,
      `/v1/companies/search/offline/${searched.body.id}`,
    );
    expect(search.status).toBe('ready');

    await open('orders', 'Orders and offline searches');
    const orders = page.getByRole('table', { name: 'Orders, newest first' });
    expect(await orders.locator('thead th').allInnerTexts()).toEqual([
      'Order',
      'Product',
      'Company',
      'Status',
      'Created',
      'Delivery',
      'Client reference',
      'Failure',
      'Download',
    ]);
    const orderRow = (await orders.locator('tbody tr', { hasText: order.id }).innerText()).split('\t');
    expect(orderRow.slice(0, 7)).toEqual([
      order.id,
      'Charges extract',
      `${company.name}\nACN ${company.formatted}`,
      order.status,
      shownInSydney(order.createdAt),
      'Email to charges@example.com',
      'PO-4411',
    ]);

    const searches = page.getByRole('table', { name: 'Offline searches, newest first' });
    const searchRow = (await searches.locator('tbody tr', { hasText: search.id }).innerText()).split('\t');
    expect(searchRow.slice(0, 8)).toEqual([
      search.id,
      search.q,
      'current',
      'ready',
      '180 matches',
      'Webhook',
      shownInSydney(search.createdAt),
      'names-1',
    ]);
    const downloading = page.waitForEvent('download');
    await searches.getByRole('button', { name: `Download results ${search.id}` }).click();
    const saved = JSON.parse(readFileSync((await (await downloading).path()) as string, 'utf8')) as unknown[];
    expect(saved).toHaveLength(180);
    await expectAccessible('orders-complete');
  }, 60_000);
});

describe('the Extracts page', () => {
  it('filters by kind and company, shows the client reference, and copies or downloads the JSON', async () => {
    const mine = await buyExtract(key.secret, SANDBOX.proprietary, 'current', {
      'X-Client-Reference': 'KYC-77',
    });
    expect(mine.status, mine.text).toBe(201);
    const other = await buyExtract(key.secret, '990000149', 'current');
    expect(other.status, other.text).toBe(201);
    const id = (mine.body as { id: string }).id;
    const name = (mine.body as unknown as { company: { name: string } }).company.name;

    await open('extracts', 'Extracts');
    const rows = () => page.getByRole('table', { name: 'Held extracts, newest first' }).locator('tbody tr');
    const mineRow = rows().filter({ hasText: 'KYC-77' });
    expect((await mineRow.innerText()).split('\t').slice(0, 3)).toEqual([
      'Company (current)',
      `${name}\nACN 990 000 014`,
      'KYC-77',
    ]);
    expect(await rows().count()).toBeGreaterThan(1);

    await page.getByLabel('Company').fill('990 000 014');
    await expect.poll(() => page.getByRole('status').innerText()).toMatch(/^\d+ extracts? shown\.$/);
    expect(new Set(await rows().locator('td:nth-child(2)').allInnerTexts())).toEqual(
      new Set([`${name}\nACN 990 000 014`]),
    );
    await page.getByLabel('Company').fill(name.slice(0, 6).toLowerCase());
    await expect.poll(() => rows().filter({ hasText: 'KYC-77' }).count()).toBe(1);

    await page.getByLabel('Company').fill('');
    await page.getByLabel('Kind').selectOption('person');
    await expect
      .poll(() => page.locator('main p.empty').innerText())
      .toBe('Held extracts, newest first: none.');
    await expect.poll(() => page.getByRole('status').innerText()).toBe('0 extracts shown.');
    await page.getByLabel('Kind').selectOption('company');
    await expect.poll(() => rows().filter({ hasText: 'KYC-77' }).count()).toBe(1);
    await expectAccessible('extracts-filtered');

    await page.getByRole('button', { name: `Open extract ${id}` }).click();
    const json = (await call(`/v1/extracts/${id}`, { key: key.secret })).text;
    await page.getByRole('button', { name: 'Copy JSON' }).click();
    await expect.poll(() => page.locator('.copied').innerText()).toBe('The extract copied.');
    expect(JSON.parse(await clipboard())).toEqual(sameRead(json));
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download JSON' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${id}.json`);
    expect(JSON.parse(readFileSync((await download.path()) as string, 'utf8'))).toEqual(sameRead(json));
    await expectAccessible('extract-open');
  });
});

describe('a webhook endpoint made through the API', () => {
  it('shows its description and edits it, keeping what the page does not show', async () => {
    const created = await api<{ id: string }>('/v1/webhook-endpoints', 'POST', {
      url: `${receiver.url}?described`,
      enabledEvents: ['order.ready', 'company.deregistered'],
      description: 'Orders to the ERP',
    });
    expect(created.status, created.text).toBe(201);
    const path = `/v1/webhook-endpoints/${created.body.id}`;
    await open('webhooks', 'Webhooks');
    const row = page.getByRole('table', { name: 'Endpoints' }).locator('tbody tr', { hasText: '?described' });
    expect((await row.innerText()).split('\t')[1]).toBe('Orders to the ERP');

    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    expect(await page.locator('dl.facts').innerText()).toContain('Description\nOrders to the ERP');
    await page.getByLabel('Description').fill('Orders to the new ERP');
    await page.getByRole('button', { name: 'Save description' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Description saved.');
    expect(await page.locator('dl.facts').innerText()).toContain('Description\nOrders to the new ERP');
    const saved = await api<Record<string, unknown>>(path);
    expect(saved.body).toMatchObject({
      url: `${receiver.url}?described`,
      enabledEvents: ['order.ready', 'company.deregistered'],
      status: 'enabled',
      description: 'Orders to the new ERP',
    });
    await page.getByLabel('Description').fill('');
    await page.getByRole('button', { name: 'Save description' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Description removed.');
    expect((await api<{ description: string | null }>(path)).body.description).toBeNull();
  });

  it('asks before rotating the secret (Escape cancels), then shows the new secret once, copyable', async () => {
    const created = await api<{ id: string; secret: string }>('/v1/webhook-endpoints', 'POST', {
      url: receiver.url,
      enabledEvents: ['order.ready'],
    });
    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    const rotate = page.locator('.actions').getByRole('button', { name: 'Rotate the secret' });
    await rotate.click();
    await dialog().waitFor();
    expect(await dialog().getByRole('heading').innerText()).toBe('Rotate the signing secret?');
    expect(await activeText()).toBe('Cancel');
    await expectAccessible('endpoint-rotate-dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
    expect(await activeText()).toBe('Rotate the secret');
    expect(await page.locator('.secret-value').count()).toBe(0);

    await page.keyboard.press('Enter');
    await dialog().getByRole('button', { name: 'Rotate the secret' }).click();
    await page.locator('.secret-value').waitFor();
    const secret = await page.locator('.secret-value').innerText();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.body.secret);
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await expect.poll(() => page.locator('.copied').innerText()).toBe('The secret copied.');
    expect(await clipboard()).toBe(secret);
    await expectAccessible('endpoint-secret');
    // Once: drawn again, the page has no secret to show.
    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    expect(await page.locator('.secret-value').count()).toBe(0);
  });

  it('asks before disabling; Cancel leaves it enabled, confirming disables it', async () => {
    const created = await api<{ id: string }>('/v1/webhook-endpoints', 'POST', {
      url: receiver.url,
      enabledEvents: ['order.ready'],
    });
    const path = `/v1/webhook-endpoints/${created.body.id}`;
    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    await page.locator('.actions').getByRole('button', { name: 'Disable' }).click();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    expect((await api<{ status: string }>(path)).body.status).toBe('enabled');
    await page.locator('.actions').getByRole('button', { name: 'Disable' }).click();
    await dialog().getByRole('button', { name: 'Disable' }).click();
    await expect.poll(async () => (await api<{ status: string }>(path)).body.status).toBe('disabled');
    await expect.poll(() => page.locator('.actions').getByRole('button', { name: 'Enable' }).count()).toBe(1);
  });

  it('asks before deleting; Cancel keeps it, confirming deletes it and goes back to the list', async () => {
    const created = await api<{ id: string }>('/v1/webhook-endpoints', 'POST', {
      url: `${receiver.url}?doomed`,
      enabledEvents: ['order.ready'],
    });
    const path = `/v1/webhook-endpoints/${created.body.id}`;
    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    await page.locator('.actions').getByRole('button', { name: 'Delete the endpoint' }).click();
    expect(await dialog().innerText()).toContain(`${receiver.url}?doomed receives no more events`);
    await expectAccessible('endpoint-delete-dialog');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    expect((await api(path)).status).toBe(200);

    // By keyboard: Tab from Cancel to the action, Enter.
    await page.locator('.actions').getByRole('button', { name: 'Delete the endpoint' }).click();
    await page.keyboard.press('Tab');
    expect(await activeText()).toBe('Delete the endpoint');
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().innerText()).toBe('Webhooks');
    expect(await page.getByRole('status').innerText()).toBe(`Endpoint ${created.body.id} deleted.`);
    expect((await api(path)).status).toBe(404);
    expect(await page.getByRole('table', { name: 'Endpoints' }).innerText()).not.toContain('?doomed');
  });

  it("opens an event's payload from the event log and from a delivery", async () => {
    const created = await api<{ id: string }>('/v1/webhook-endpoints', 'POST', {
      url: receiver.url,
      enabledEvents: ['webhook_endpoint.test'],
    });
    const sent = await api<{ eventId?: string; event?: { id: string } }>(
      `/v1/webhook-endpoints/${created.body.id}/test`,
      'POST',
      {},
    );
    expect(sent.status, sent.text).toBeLessThan(300);
    const events = await api<{ data: { id: string; type: string }[] }>(
      '/v1/events?type=webhook_endpoint.test&limit=1',
    );
    const eventId = events.body.data[0]?.id as string;
    const event = await api(`/v1/events/${eventId}`);

    await open('webhooks', 'Webhooks');
    await page.getByRole('button', { name: `View payload of ${eventId}` }).click();
    await dialog().waitFor();
    expect(await dialog().getByRole('heading').innerText()).toBe(`Event ${eventId}`);
    expect(JSON.parse(await dialog().locator('pre').innerText())).toEqual(sameRead(event.text));
    await expectAccessible('event-payload-dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
    expect(await activeText()).toBe(`View payload of ${eventId}`);

    await open(`webhooks/${created.body.id}`, 'Webhook endpoint');
    await expect
      .poll(() => page.getByRole('button', { name: `View payload of ${eventId}` }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await page.getByRole('button', { name: `View payload of ${eventId}` }).click();
    expect(JSON.parse(await dialog().locator('pre').innerText())).toEqual(sameRead(event.text));
    await dialog().getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog().count()).toBe(0);
  });
});

describe('the Keys page', () => {
  it("marks this session's key, and shows when a key was revoked, in the viewer's zone with UTC", async () => {
    const revoked = await createKey('test', { accountId: key.accountId });
    await revokeKey(revoked);
    const listed = await withSession(await signIn(key.secret), '/console/keys');
    const keyList = listed.body.data as { id: string; createdAt: string; revokedAt: string | null }[];
    const revokedAt = keyList.find((k) => k.id === revoked.keyId)?.revokedAt as string;
    const createdAt = keyList.find((k) => k.id === key.keyId)?.createdAt as string;
    await open('keys', 'API keys');
    const keys = page.getByRole('table', { name: 'Keys, newest first' });
    const mine = (await keys.locator('tbody tr', { hasText: key.keyId }).innerText()).split('\t');
    expect([mine[0], mine[3]]).toEqual([
      `Test key …${key.secret.slice(-4)}\n${key.keyId}\nThis session’s key`,
      shownInSydney(createdAt),
    ]);
    const theirs = (await keys.locator('tbody tr', { hasText: revoked.keyId }).innerText()).split('\t');
    expect(theirs[0]).toBe(`Test key …${revoked.secret.slice(-4)}\n${revoked.keyId}`);
    expect(theirs[2]).toBe(`revoked ${shownInSydney(revokedAt)}`);
    expect(theirs[2]).toMatch(
      /^revoked \d{4}-\d{2}-\d{2}\u00a0\d{2}:\d{2}\u00a0AE[DS]T \(.*\d{2}:\d{2}\u00a0UTC\)$/,
    );
    await expectAccessible('keys-marked');
  });

  const keyRows = () => page.getByRole('table', { name: 'Keys, newest first' }).locator('tbody tr');

  it('creates a key in a dialog: its secret once, copyable, then the key in the list, and the secret gone on reload', async () => {
    await open('keys', 'API keys');
    const before = await keyRows().count();
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    await dialog().waitFor();
    expect(await dialog().getByRole('heading').innerText()).toBe('Create a test key');
    // Focus is in the dialog, on its first field; the hint says what a label may hold.
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('new-key-label');
    await expectAccessible('keys-create-dialog');
    await page.keyboard.type('Nightly import');
    // Clicked twice in a hurry: one key.
    await dialog().getByRole('button', { name: 'Create key' }).dblclick();
    const shown = dialog().locator('.secret-value');
    await shown.waitFor();
    const secret = await shown.innerText();
    expect(secret).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(await dialog().innerText()).toContain(
      'This is the only time the secret is shown: copy it and store it now. You will not see it again.',
    );
    expect(await activeText()).toBe('Done');
    await dialog().getByRole('button', { name: 'Copy the secret' }).click();
    await expect.poll(() => dialog().locator('.copied').innerText()).toBe('The secret copied.');
    expect(await clipboard()).toBe(secret);
    await expectAccessible('keys-secret-dialog');
    // The secret works against the API as a client sends it.
    const used = await fetch(`${baseUrl}/v1/usage`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(used.status).toBe(200);

    // By keyboard, from the copy button to Done.
    await page.keyboard.press('Tab');
    expect(await activeText()).toBe('Done');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog().count()).toBe(0);
    const made = keyRows().filter({ hasText: 'Nightly import' });
    await expect.poll(() => made.count(), { timeout: 10_000 }).toBe(1);
    expect(await keyRows().count()).toBe(before + 1);
    const keyId = /key_[0-9a-f]{20}/.exec(await made.innerText())?.[0];
    expect(await page.getByRole('status').innerText()).toBe(`Created Nightly import (${keyId}).`);
    expect((await made.innerText()).split('\t')[1]).toBe(`…${secret.slice(-4)}`);
    await expectAccessible('keys-created');

    await page.reload();
    await open('keys', 'API keys');
    expect(await page.locator('.secret-value').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(await keyRows().filter({ hasText: 'Nightly import' }).count()).toBe(1);
  });

  it('labels a key made outside the console, by keyboard: a bad label is explained in the dialog, Escape changes nothing', async () => {
    const seeded = await createKey('test', { accountId: key.accountId });
    await open('keys', 'API keys');
    const row = keyRows().filter({ hasText: seeded.keyId });
    expect((await row.innerText()).split('\t')[0]).toBe(
      `Test key …${seeded.secret.slice(-4)}\n${seeded.keyId}`,
    );
    await page.getByRole('button', { name: `Label ${seeded.keyId}` }).focus();
    await page.keyboard.press('Enter');
    await dialog().waitFor();
    expect(await dialog().getByRole('heading').innerText()).toBe(`Label ${seeded.keyId}`);
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('key-label');
    await page.keyboard.type('Payroll <export>');
    await page.keyboard.press('Enter');
    const error = dialog().locator('#key-label-error');
    await expect.poll(() => error.innerText()).toContain('label must be 1 to 40 letters');
    expect(await dialog().getByLabel('Label (optional)').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible('keys-label-error');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
    expect(await activeText()).toBe('Label');
    expect((await keyAdmin.find(key.accountId, seeded.keyId))?.label).toBeUndefined();

    await page.keyboard.press('Enter');
    await dialog().waitFor();
    await dialog().getByLabel('Label (optional)').fill('Payroll export');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog().count()).toBe(0);
    await expect
      .poll(() => page.getByRole('status').innerText())
      .toBe(`Labelled ${seeded.keyId} Payroll export.`);
    // The list is drawn again from the API.
    await expect
      .poll(async () => (await row.innerText()).split('\t')[0], { timeout: 10_000 })
      .toBe(`Payroll export\n${seeded.keyId}`);
    expect((await keyAdmin.find(key.accountId, seeded.keyId))?.label).toBe('Payroll export');
    // Still the same key, still working.
    expect((await call('/v1/usage', { key: seeded.secret })).status).toBe(200);
  });
});

describe('counts in words', () => {
  it('says "1 duplicate" and "1 row", not "1 duplicates"', async () => {
    await open('monitors', 'Monitors');
    await page.getByLabel('CSV', { exact: true }).fill('company\n990000158\n990 000 158\n');
    await page.getByRole('button', { name: 'Check rows (dry run)' }).click();
    await expect
      .poll(() => page.locator('.import-summary').innerText())
      .toBe(
        'Dry run of 2 rows: 1 would be created, 0 already watched, 0 invalid, 1 duplicate, 0 over the limit. Nothing was created.',
      );
    expect(await page.getByRole('status').innerText()).toBe('Dry run: 1 would be created, 1 row would not.');
  });
});

describe('the pages', () => {
  it('threw no error and logged none', () => {
    expect(problems).toEqual([]);
  });
});
