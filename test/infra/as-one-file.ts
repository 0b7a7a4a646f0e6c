/**
 * Every infra file as one test file, as `npm test` runs them (vitest.config.ts): one worker
 * synthesizes each app once (test/infra/synth.ts), where two workers each synthesized dev and prod
 * for themselves. Each file is imported inside a suite named after it, so its hooks stay its own.
 */
import { readdirSync } from 'node:fs';
import { describe } from 'vitest';

// Every file the project's own include would name (`test/infra/**/*.test.ts`).
const files = readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.test.ts'))
  .sort();

for (const file of files) {
  describe(file, async () => {
    await import(/* @vite-ignore */ `./${file}`);
  });
}
