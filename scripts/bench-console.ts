/**
 * The console's budgets, in `npm run bench`: the largest page's script gzipped (≤ 100 KB; the
 * console has one script for every page), and first render on the local stack (≤ 1 s): from
 * opening /console with a session to the overview's tables drawn (and to the monitors page's
 * list), in the npm-shipped Chromium (test/support/browser.ts), median of several loads after one
 * warm-up. Beside it, the machine's floor in the same run: the same browser opening a page of the
 * same server that has no script and reads no data (the sign-in link's "does not work" page), so
 * that a slow, shared machine is told apart from a slow console.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { CONSOLE_SCRIPT } from '../shared/console/routes.ts';
import { launchBrowser } from '../test/support/browser.ts';

export const CONSOLE_TARGETS = { scriptGzipKb: 100, firstRenderMs: 1000 };
const LOADS = 7;

export async function benchConsole(baseUrl: string, secret: string): Promise<void> {
  const gzipKb = gzipSync(readFileSync(CONSOLE_SCRIPT)).length / 1024;
  const { browser, source } = await launchBrowser();
  try {
    const page = await browser.newPage();
    const link = await fetch(`${baseUrl}/v1/console/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { url } = (await link.json()) as { url: string };
    await page.goto(url);
    // The link's page signs in from its button (a GET alone spends nothing).
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('table', { name: 'Fee entries per day, the last 30 days' }).waitFor();
    const medianOf = async (open: () => Promise<void>): Promise<number> => {
      await open();
      const times: number[] = [];
      for (let i = 0; i < LOADS; i += 1) {
        // From a blank page, so that every load is a whole one (not a move within the page).
        await page.goto('about:blank');
        const started = performance.now();
        await open();
        times.push(performance.now() - started);
      }
      return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
    };
    const median = await medianOf(async () => {
      await page.goto(`${baseUrl}/console`);
      await page.getByRole('table', { name: 'Fee entries per day, the last 30 days' }).waitFor();
    });
    const monitors = await medianOf(async () => {
      await page.goto(`${baseUrl}/console#/monitors`);
      await page.getByRole('button', { name: 'Next page' }).waitFor();
    });
    // The floor: a page of the same server with no script and no data.
    const floor = await medianOf(async () => {
      await page.goto(`${baseUrl}/console/sign-in?token=bench`);
      await page.getByRole('heading', { name: 'This sign-in link does not work' }).waitFor();
    });
    const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');
    console.log(`\nAccount console (Chromium from ${source})`);
    console.log(
      `  ${mark(gzipKb <= CONSOLE_TARGETS.scriptGzipKb)} largest page's script  ${gzipKb.toFixed(1).padStart(6)} KB gzipped   target ≤ ${CONSOLE_TARGETS.scriptGzipKb} KB`,
    );
    console.log(
      `  ${mark(median <= CONSOLE_TARGETS.firstRenderMs)} first render (overview) ${median.toFixed(0).padStart(6)} ms median of ${LOADS}   target ≤ ${CONSOLE_TARGETS.firstRenderMs} ms   (${(median / floor).toFixed(1)}× the floor)`,
    );
    console.log(
      `  ${mark(monitors <= CONSOLE_TARGETS.firstRenderMs)} first render (monitors) ${monitors.toFixed(0).padStart(6)} ms median of ${LOADS}   target ≤ ${CONSOLE_TARGETS.firstRenderMs} ms   (${(monitors / floor).toFixed(1)}× the floor)`,
    );
    console.log(
      `       floor: a page with no script or data ${floor.toFixed(0).padStart(6)} ms median of ${LOADS}   (same browser and server, same run)`,
    );
  } finally {
    await browser.close();
  }
}
