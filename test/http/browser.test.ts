/**
 * The browser the HTTP tests drive comes with `npm ci` (test/support/browser.ts): on Linux x86-64,
 * with no `CHROMIUM_PATH`, it is the Chromium inside `@sparticuz/chromium`, not a system one.
 */
import { describe, expect, it } from 'vitest';
import { chooseChromium, launchBrowser, packagedChromiumRuns } from '../support/browser.ts';

describe('the test browser', () => {
  // Where the packaged binary runs and no CHROMIUM_PATH overrides it, it is the one launched.
  const expected = process.env.CHROMIUM_PATH ? 'CHROMIUM_PATH' : packagedChromiumRuns() ? 'npm' : 'system';

  it(`is ${expected === 'npm' ? "@sparticuz/chromium's binary, unpacked under .local/" : expected}, and it renders`, async () => {
    const chosen = await chooseChromium();
    expect(chosen.source).toBe(expected);
    if (expected === 'npm')
      expect(chosen.executablePath).toMatch(/\/\.local\/chromium-\d+\.\d+\.\d+\/chromium$/);
    const { browser, executablePath, source } = await launchBrowser();
    console.info(`test browser: ${source} ${executablePath} (Chromium ${browser.version()})`);
    try {
      expect(source).toBe(expected);
      const page = await browser.newPage();
      await page.setContent('<main><h1>Rendered</h1></main>');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Rendered');
      expect((await page.screenshot()).length).toBeGreaterThan(1_000);
    } finally {
      await browser.close();
    }
  });

  it('refuses a CHROMIUM_PATH that does not exist, naming it', async () => {
    const before = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = '/nowhere/chromium';
    try {
      await expect(chooseChromium()).rejects.toThrow(
        'CHROMIUM_PATH names /nowhere/chromium, which does not exist',
      );
    } finally {
      if (before === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = before;
    }
  });
});
