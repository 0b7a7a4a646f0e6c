/**
 * docs/openapi.json passes an external OpenAPI linter: Redocly's recommended rules (redocly.yaml),
 * with no error and no warning. A rule the contract deliberately breaks is turned off in
 * redocly.yaml with its reason, never here.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const redocly = join(
  dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
  'bin/cli.js',
);

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe('the OpenAPI lint (Redocly recommended)', () => {
  it('finds no error and no warning in docs/openapi.json', { timeout: 60_000 }, async () => {
    // Redocly exits 1 when it finds an error; its report is on stdout either way.
    const stdout = await promisify(execFile)(process.execPath, [redocly, 'lint', '--format=json'], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      (result) => result.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map(
      ({ ruleId, severity, message, location }) =>
        `${severity} ${ruleId} at ${location[0]?.pointer}: ${message}`,
    );
    expect(problems).toStrictEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
