/**
 * Calendar weeks of the weekly summaries (spec document 2, 4.10; document 3, 8): Monday to
 * Sunday, in UTC dates. A week is complete once its Sunday has passed (the clock is at or after
 * the following Monday, 00:00 UTC).
 */
import { isCalendarDate } from '../kernel/clock.ts';

const DAY_MS = 86_400_000;

const dateOf = (value: string) => new Date(`${value}T00:00:00Z`);
export const isoDateOf = (date: Date) => date.toISOString().slice(0, 10);

export const isMonday = (value: string) => isCalendarDate(value) && dateOf(value).getUTCDay() === 1;

/** The Monday that starts the week holding `now`. */
export function mondayOf(now: Date): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return isoDateOf(new Date(day.getTime() - sinceMonday * DAY_MS));
}

/** The Sunday ending the week that starts on `monday`. */
export const weekEndingOf = (monday: string) => isoDateOf(new Date(dateOf(monday).getTime() + 6 * DAY_MS));

/** The Monday `weeks` weeks before (positive) the week holding `now`. */
export const mondayWeeksAgo = (now: Date, weeks: number) =>
  isoDateOf(new Date(dateOf(mondayOf(now)).getTime() - weeks * 7 * DAY_MS));

/** Whole weeks between the week starting `monday` and the week holding `now` (0: this week). */
export const weeksAgo = (monday: string, now: Date) =>
  Math.round((dateOf(mondayOf(now)).getTime() - dateOf(monday).getTime()) / (7 * DAY_MS));

/** The week has ended: its Sunday is before today (UTC). */
export const isCompletedWeek = (monday: string, now: Date) =>
  dateOf(monday).getTime() + 7 * DAY_MS <= now.getTime();

/** The service's window: the week starts on or after the same date 12 calendar months ago. */
export function isWithinTwelveMonths(monday: string, now: Date): boolean {
  const earliest = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate()));
  return dateOf(monday).getTime() >= earliest.getTime();
}
