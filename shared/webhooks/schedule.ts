/**
 * When a failed delivery is tried again (spec 6.4): about 1 minute, 5 minutes, 30 minutes,
 * 2 hours, 6 hours after the attempts before, then every 6 hours, while within 24 hours of the
 * event. A resend asked for through the API may come after the window; it is tried once.
 */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000] as const;
export const LATER_DELAY_MS = 6 * 3600_000;
export const RETRY_WINDOW_MS = 24 * 3600_000;

/** After failed attempt `attempt` (from 1) at `at`, the next attempt's time, or null when the window has closed. */
export function nextAttemptAfter(attempt: number, at: Date, eventCreatedAt: string): Date | null {
  const delay = RETRY_DELAYS_MS[attempt - 1] ?? LATER_DELAY_MS;
  const next = new Date(at.getTime() + delay);
  return next.getTime() <= Date.parse(eventCreatedAt) + RETRY_WINDOW_MS ? next : null;
}
