/**
 * Stands in for `semver` in the yardstick bundles (scripts/bench.ts), as it did in the service's
 * bundles while they carried Powertools Tracer, so the baseline is the one measured since. The
 * X-Ray SDK behind the tracer, and its cls-hooked dependency, call only `semver.gte` on plain
 * release versions (`22.12.0` ≥ `8.0.0`, an AWS SDK version ≥ a minimum); the full library is 28 KB.
 */
const parts = (version: string): number[] =>
  version
    .replace(/^v/, '')
    .split(/[-+]/)[0]
    ?.split('.')
    .map((part) => Number.parseInt(part, 10) || 0) ?? [];

/** True when `version` is the same release as `minimum` or a later one (pre-release tags ignored). */
export function gte(version: string, minimum: string): boolean {
  const a = parts(version);
  const b = parts(minimum);
  for (let i = 0; i < Math.max(a.length, b.length, 3); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

export default { gte };
