/** A browser page checked as a person would meet it: axe-core's WCAG 2.2 A/AA rules, and a screenshot to look at. */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** No axe violation on the page as it is now; its screenshot goes to `.local/console-<name>.png`. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    name,
  ).toEqual([]);
  mkdirSync('.local', { recursive: true });
  await page.screenshot({ path: `.local/console-${name}.png`, fullPage: true });
}
