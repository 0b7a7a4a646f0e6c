/**
 * The reference data the API serves: the copy the daily refresh stored (refresh.ts), or the
 * bundled copy (data/*.json) while no refresh has stored one. Reading it never contacts the
 * registry, so the reference routes keep working in the registry's maintenance windows and when
 * a refresh fails (spec document 2, 4.6; document 3, section 8).
 *
 * A function keeps what it read for `REFERENCE_CACHE_MS`, so a warm function reads the table at
 * most once a minute per kind instead of on every request; a refresh reaches every function within
 * that time.
 */
import type { Clock } from '../kernel/clock.ts';
import type { CurrentReference } from './current-port.ts';
import type { ReferenceData, ReferenceKind, ReferenceStore } from './store-port.ts';

/** How long a function serves the copy it read before reading the table again. */
export const REFERENCE_CACHE_MS = 60_000;

/**
 * The copy of one kind, as `derive` shapes it for a route: the stored one, else `bundled`; kept
 * for `REFERENCE_CACHE_MS`, one table read at a time. Each kind has its own module
 * (current-forms.ts, current-code-tables.ts), so a route bundles only its own fallback file.
 */
export function currentCopy<K extends ReferenceKind, T>(
  kind: K,
  store: ReferenceStore,
  clock: Clock,
  bundled: ReferenceData[K],
  derive: (data: ReferenceData[K]) => T,
): () => Promise<CurrentReference<T>> {
  let held: { copy: CurrentReference<T>; readAt: number } | undefined;
  let reading: Promise<CurrentReference<T>> | undefined;
  const read = async (): Promise<CurrentReference<T>> => {
    try {
      const stored = await store.get(kind);
      const copy = stored
        ? { data: derive(stored.data), refreshedAt: new Date(stored.refreshedAt) }
        : { data: derive(bundled), refreshedAt: null };
      held = { copy, readAt: clock.now().getTime() };
      return copy;
    } catch (error) {
      // A failed read serves what was read before rather than failing a free route.
      if (held) return held.copy;
      throw error;
    } finally {
      reading = undefined;
    }
  };
  return () => {
    // A clock moved back (the local stack's) reads again rather than keeping the copy for good.
    const age = held ? clock.now().getTime() - held.readAt : -1;
    if (held && age >= 0 && age < REFERENCE_CACHE_MS) return Promise.resolve(held.copy);
    reading ??= read();
    return reading;
  };
}

/** The `Last-Modified` header of a reference response: the refresh time; none for the bundled copy. */
export const freshnessHeaders = (refreshedAt: Date | null): Record<string, string> =>
  refreshedAt ? { 'Last-Modified': refreshedAt.toUTCString() } : {};
