/**
 * The console's budgets, in `npm run bench` (BENCH_ONLY_CONSOLE=1 runs them alone), per page: every
 * view of the console (overview with its spend, extracts, orders, webhooks, one webhook endpoint,
 * monitors, one monitor, keys, requests) and the sign-in pages (the link's page and the "does not
 * work" page), in the npm-shipped Chromium (test/support/browser.ts).
 *
 * - **Transfer**: the page opened once in a fresh context holding only the session cookie (nothing
 *   cached), summing what the navigation and every request it made carried over the wire
 *   (Resource Timing's `transferSize`: gzipped bodies and headers): the page, its script and
 *   stylesheet, and the API calls that draw it. Target: the largest ≤ 100 KB.
 * - **First render**: then, in the same context (its files cached, as a returning user has them),
 *   the median of several loads from a blank page until the view's heading shows its title and
 *   nothing in it is still loading. Target ≤ 1 s, or on a loaded machine ≤ 2× the floor: the same
 *   browser opening a page of the same server with no script and no data (the sign-in link's "does
 *   not work" page), measured in the same run.
 *
 * PASS/FAIL per page; the script's own gzipped size is printed beside them.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CONSOLE_SCRIPT } from '../shared/console/routes.ts';
import { launchBrowser } from '../test/support/browser.ts';

export const CONSOLE_TARGETS = { transferGzipKb: 100, firstRenderMs: 1000, overFloor: 2 };
const LOADS = 5;

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

interface ConsolePage {
  name: string;
  url: string;
  ready: (page: Page) => Promise<unknown>;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** A view of the single-page console has drawn: its heading names it and nothing is loading. */
const view = (baseUrl: string, name: string, route: string, title: string): ConsolePage => ({
  name,
  url: `${baseUrl}/console#/${route}`,
  ready: async (page) => {
    // Locators, not a predicate: the console's policy refuses the evaluation of strings.
    await page
      .locator('main')
      .getByRole('heading', { level: 1, name: title, exact: true })
      .waitFor({ timeout: 60_000 });
    await page.locator('main .loading').waitFor({ state: 'detached', timeout: 60_000 });
  },
});

const staticPage = (name: string, url: string, heading: string): ConsolePage => ({
  name,
  url,
  ready: (page) => page.getByRole('heading', { name: heading }).waitFor({ timeout: 60_000 }),
});

const transferred = `[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
  .reduce((sum, entry) => sum + entry.transferSize, 0)`;

async function measurePage(browser: Browser, state: StorageState, target: ConsolePage) {
  const context = await browser.newContext({ storageState: state, viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(target.url);
    await target.ready(page);
    await page.waitForLoadState('networkidle');
    const bytes = (await page.evaluate(transferred)) as number;
    const times: number[] = [];
    for (let i = 0; i < LOADS; i += 1) {
      // From a blank page, so that every load is a whole one (not a move within the page).
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto(target.url);
      await target.ready(page);
      times.push(performance.now() - started);
    }
    return { kb: bytes / 1024, ms: median(times) };
  } finally {
    await context.close();
  }
}

/** The API answer of `path` with the bench's test key. */
async function api(baseUrl: string, secret: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The id of the key's first `list` item, creating one with `create` when there is none. */
async function someId(baseUrl: string, secret: string, list: string, create: unknown) {
  const listed = await api(baseUrl, secret, list);
  const first = (listed.body.data as { id: string }[] | undefined)?.[0]?.id;
  if (first) return first;
  const created = await api(baseUrl, secret, list, create);
  return created.status < 300 ? (created.body.id as string) : undefined;
}

export async function benchConsole(baseUrl: string, secret: string): Promise<void> {
  const scriptGzipKb = gzipSync(readFileSync(CONSOLE_SCRIPT)).length / 1024;
  const { browser, source } = await launchBrowser();
  try {
    const newLink = async () => {
      const link = await api(baseUrl, secret, '/v1/console/sessions', {});
      return link.body.url as string;
    };
    const signIn = await browser.newContext();
    const page = await signIn.newPage();
    await page.goto(await newLink());
    // The link's page signs in from its button (a GET alone spends nothing).
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('main h1', { hasText: 'Overview' }).waitFor({ timeout: 60_000 });
    const state = await signIn.storageState();
    await signIn.close();

    const endpointId = await someId(baseUrl, secret, '/v1/webhook-endpoints', {
      url: 'https://127.0.0.1:9/bench',
      enabledEvents: ['order.ready'],
    });
    const monitorId = await someId(baseUrl, secret, '/v1/monitors', { company: '990000014' });
    const pages: ConsolePage[] = [
      view(baseUrl, 'overview (spend)', '', 'Overview'),
      view(baseUrl, 'extracts', 'extracts', 'Extracts'),
      view(baseUrl, 'orders', 'orders', 'Orders and offline searches'),
      view(baseUrl, 'webhooks', 'webhooks', 'Webhooks'),
      ...(endpointId
        ? [view(baseUrl, 'webhook endpoint', `webhooks/${endpointId}`, 'Webhook endpoint')]
        : []),
      view(baseUrl, 'monitors', 'monitors', 'Monitors'),
      ...(monitorId ? [view(baseUrl, 'monitor', `monitors/${monitorId}`, 'Monitor')] : []),
      view(baseUrl, 'keys', 'keys', 'API keys'),
      view(baseUrl, 'requests', 'requests', 'Find a request'),
      // A GET of the link's page spends nothing: one link serves every load.
      staticPage('sign-in link', await newLink(), 'Sign in to the account console'),
    ];
    const floorPage = staticPage(
      'sign-in, link not working (floor)',
      `${baseUrl}/console/sign-in?token=bench`,
      'This sign-in link does not work',
    );
    const load = loadavg()[0] as number;
    const floor = await measurePage(browser, state, floorPage);
    const results = [];
    for (const target of pages) results.push({ target, ...(await measurePage(browser, state, target)) });
    const floorAfter = await measurePage(browser, state, floorPage);
    const floorMs = (floor.ms + floorAfter.ms) / 2;

    console.log(
      `\nAccount console, per page (Chromium from ${source}; load average ${load.toFixed(2)} at the start, ${(loadavg()[0] as number).toFixed(2)} at the end)   targets: transfer ≤ ${CONSOLE_TARGETS.transferGzipKb} KB gzipped; first render ≤ ${CONSOLE_TARGETS.firstRenderMs} ms or ≤ ${CONSOLE_TARGETS.overFloor}× the floor`,
    );
    console.log(
      `       floor: ${floorPage.name}, no script or data: ${floor.ms.toFixed(0)} ms before the pages, ${floorAfter.ms.toFixed(0)} ms after (their mean taken), ${floor.kb.toFixed(1)} KB; the console's script alone ${scriptGzipKb.toFixed(1)} KB gzipped`,
    );
    for (const { target, kb, ms } of [...results, { target: floorPage, ...floorAfter }]) {
      const sizeOk = kb <= CONSOLE_TARGETS.transferGzipKb;
      const timeOk = ms <= CONSOLE_TARGETS.firstRenderMs || ms <= CONSOLE_TARGETS.overFloor * floorMs;
      console.log(
        `  ${sizeOk && timeOk ? 'PASS' : 'FAIL'} ${target.name.padEnd(34)} ${kb.toFixed(1).padStart(6)} KB   first render ${ms.toFixed(0).padStart(5)} ms median of ${LOADS} (${(ms / floorMs).toFixed(1)}× the floor)`,
      );
    }
    const largest = results.reduce((a, b) => (b.kb > a.kb ? b : a));
    console.log(
      `  ${largest.kb <= CONSOLE_TARGETS.transferGzipKb ? 'PASS' : 'FAIL'} largest page: ${largest.target.name}, ${largest.kb.toFixed(1)} KB`,
    );
  } finally {
    await browser.close();
  }
}
