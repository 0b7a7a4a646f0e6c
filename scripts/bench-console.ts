/**
 * The console's budgets, in `npm run bench`: the largest page's script gzipped (≤ 100 KB; the
 * console has one script for every page), and first render on the local stack (≤ 1 s): from
 * opening /console with a session to the overview's tables drawn, in the npm-shipped Chromium
 * (test/support/browser.ts), median of several loads after one warm-up.
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
    await page.getByRole('table', { name: 'Fee entries per day, the last 30 days' }).waitFor();
    const times: number[] = [];
    for (let i = 0; i < LOADS; i += 1) {
      const started = performance.now();
      await page.goto(`${baseUrl}/console`);
      await page.getByRole('table', { name: 'Fee entries per day, the last 30 days' }).waitFor();
      times.push(performance.now() - started);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
    const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');
    console.log(`\nAccount console (Chromium from ${source})`);
    console.log(
      `  ${mark(gzipKb <= CONSOLE_TARGETS.scriptGzipKb)} largest page's script  ${gzipKb.toFixed(1).padStart(6)} KB gzipped   target ≤ ${CONSOLE_TARGETS.scriptGzipKb} KB`,
    );
    console.log(
      `  ${mark(median <= CONSOLE_TARGETS.firstRenderMs)} first render (overview) ${median.toFixed(0).padStart(6)} ms median of ${LOADS}   target ≤ ${CONSOLE_TARGETS.firstRenderMs} ms`,
    );
  } finally {
    await browser.close();
  }
}
