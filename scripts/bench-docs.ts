/**
 * The reference page part of `npm run bench` (BENCH_ONLY_DOCS=1 runs it alone): `/docs` opened in
 * headless Chromium (test/support/browser.ts) as a reader would, in a fresh 1280×800 context each
 * time (nothing cached), timed from navigation to the moment the first operation's heading was
 * painted (the Element Timing API: the page marks that heading `elementtiming="first-operation"`),
 * on the page's own clock. The floor, in the same runs and interleaved with them: a static HTML
 * page of the same size served the same way, which is `/docs` itself with scripts off, to its
 * first paint (with scripts off the page can report no element timing; its first paint is never
 * later than its heading's, so the floor is if anything low). The error reference `/docs/errors`
 * (a smaller static page) is timed beside them. Each visit also records whether the heading sits in
 * the first viewport, what it transferred, what the page logged as a warning or an error and every
 * failed request; a clean page has none. PASS: heading p50 ≤ 2× the floor's p50, in the first
 * viewport every time, nothing logged.
 */
import { cpus, loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../test/support/browser.ts';

const RUNS = 5;
export const DOCS_TARGETS = { headingOverStaticFloor: 2 };
const VIEWPORT = { width: 1280, height: 800 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** What one visit measured, on the page's clock (milliseconds from the start of navigation). */
interface Visit {
  /** When the first operation's heading was painted (scripts on), else the first contentful paint. */
  shownMs: number;
  /** Whether the heading lies wholly in the first viewport. */
  aboveFold: boolean;
  /** Bytes over the wire: the page and everything it fetched. */
  transferred: number;
  messages: string[];
}

const measure = `(() => {
  const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
  const heading = document.querySelector('[elementtiming="first-operation"]');
  const box = heading?.getBoundingClientRect();
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
  return {
    paint,
    aboveFold: !!box && box.top >= 0 && box.bottom <= innerHeight,
    transferred: entries.reduce((sum, entry) => sum + entry.transferSize, 0),
  };
})()`;

/** The heading's paint, from the buffered Element Timing entries (scripts on only); NaN if it never painted. */
const headingPaint = `new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const entry = list.getEntries().find((e) => e.identifier === 'first-operation');
    if (entry) resolve(entry.renderTime || entry.loadTime);
  }).observe({ type: 'element', buffered: true });
  setTimeout(() => resolve(Number.NaN), 30000);
})`;

async function visit(browser: Browser, url: string, scripts: boolean): Promise<Visit> {
  const context = await browser.newContext({ viewport: VIEWPORT, javaScriptEnabled: scripts });
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      messages.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) => messages.push(`${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) messages.push(`${response.url()} ${response.status()}`);
  });
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 180_000 });
    type Measured = { paint: number | undefined; aboveFold: boolean; transferred: number };
    let measured = (await page.evaluate(measure)) as Measured;
    // A small page can finish loading before its first paint is reported; asked again from here
    // (with scripts off the page runs no timer of its own).
    for (let waited = 0; measured.paint === undefined && waited < 30_000; waited += 50) {
      await page.waitForTimeout(50);
      measured = (await page.evaluate(measure)) as Measured;
    }
    const heading =
      scripts && url.endsWith('/docs') ? ((await page.evaluate(headingPaint)) as number) : undefined;
    return {
      shownMs: heading ?? measured.paint ?? NaN,
      aboveFold: measured.aboveFold,
      transferred: measured.transferred,
      messages,
    };
  } finally {
    await context.close();
  }
}

export async function benchDocsPage(baseUrl: string) {
  const { browser, source } = await launchBrowser();
  try {
    // Warm-up: the server's first read and render of the files.
    await visit(browser, `${baseUrl}/docs`, true);
    await visit(browser, `${baseUrl}/docs/errors`, true);
    const load = loadavg()[0] as number;
    // Interleaved, so that all three see the same load.
    const page: Visit[] = [];
    const floor: Visit[] = [];
    const errors: Visit[] = [];
    for (let i = 0; i < RUNS; i++) {
      floor.push(await visit(browser, `${baseUrl}/docs`, false));
      page.push(await visit(browser, `${baseUrl}/docs`, true));
      errors.push(await visit(browser, `${baseUrl}/docs/errors`, false));
    }
    const p50 = median(page.map((run) => run.shownMs));
    const floorP50 = median(floor.map((run) => run.shownMs));
    const errorsP50 = median(errors.map((run) => run.shownMs));
    const ratio = p50 / floorP50;
    const aboveFold = page.every((run) => run.aboveFold);
    const messages = [...new Set(page.flatMap((run) => run.messages))];
    const pass = ratio <= DOCS_TARGETS.headingOverStaticFloor && aboveFold && messages.length === 0;
    const runs = (visits: Visit[]) => visits.map((run) => run.shownMs.toFixed(0)).join(', ');
    const kb = (visits: Visit[]) => `${(median(visits.map((run) => run.transferred)) / 1024).toFixed(0)} KB`;
    console.log(
      `\nReference page /docs, headless Chromium from ${source}, fresh ${VIEWPORT.width}×${VIEWPORT.height} context, ${RUNS} runs   target: first operation's heading shown above the fold ≤ ${DOCS_TARGETS.headingOverStaticFloor}× a static page of the same size, no console warning or error`,
    );
    console.log(
      `  ${pass ? 'PASS' : 'FAIL'} heading shown p50 ${p50.toFixed(0)} ms, static page of the same size (/docs, scripts off) p50 ${floorP50.toFixed(0)} ms: ${ratio.toFixed(2)}× (target ≤ ${DOCS_TARGETS.headingOverStaticFloor}×)`,
    );
    console.log(
      `       runs: /docs ${runs(page)}; same size, scripts off ${runs(floor)}; /docs/errors (static, smaller) ${runs(errors)}, p50 ${errorsP50.toFixed(0)} ms, so /docs is ${(p50 / errorsP50).toFixed(2)}× it`,
    );
    console.log(
      `       heading above the fold: ${page.filter((run) => run.aboveFold).length} of ${RUNS} runs; transferred per visit ${kb(page)} (/docs/errors ${kb(errors)}); load average ${load.toFixed(2)} at the start, ${(loadavg()[0] as number).toFixed(2)} at the end (${cpus().length} cores)`,
    );
    console.log(
      `       console warnings and errors, failed requests: ${messages.length === 0 ? 'none' : messages.join(' | ')}`,
    );
  } finally {
    await browser.close();
  }
}
