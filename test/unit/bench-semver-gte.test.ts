import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { gte } from '../../scripts/bench-baseline/semver-gte.ts';

describe('the semver.gte stand-in in the yardstick bundles', () => {
  it.each([
    ['22.12.0', '8.0.0'],
    ['v22.12.0', '8.0.0'],
    ['8.0.0', '8.0.0'],
    ['7.10.1', '8.0.0'],
    ['3.1162.0', '3.0.0'],
    ['2.999.0', '3.0.0'],
    ['10.0.0', '9.99.99'],
    ['1.2.3', '1.2.4'],
    ['1.3.0', '1.2.9'],
  ])('agrees with semver: gte(%s, %s)', (version, minimum) => {
    expect(gte(version, minimum)).toBe(semver.gte(version, minimum));
  });
});
