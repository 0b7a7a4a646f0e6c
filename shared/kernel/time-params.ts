/**
 * The one way the API reads a date or a time from a client: `YYYY-MM-DD` that is a real calendar
 * date, and `YYYY-MM-DDThh:mm:ssZ` (RFC 3339, UTC, to the second) that is a real instant. Nothing
 * is rolled over: `2026-02-31` and `T24:00:00` are refused, never read as March 3rd or the next day.
 */
import * as z from 'zod/mini';
import { isCalendarDate } from './clock.ts';

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
/** What JSON Schema can say of a date: months 01–12, days 01–31 (the calendar is checked after). */
const DATE_SHAPE = '\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])';
const DATE = new RegExp(`^${DATE_SHAPE}$`);
/** And of a time: hours 00–23, minutes and seconds 00–59, in UTC. */
const TIME = new RegExp(`^${DATE_SHAPE}T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\dZ$`);

/** A real UTC time written `YYYY-MM-DDThh:mm:ssZ`: a calendar date, hours 00–23, minutes and seconds 00–59. */
export function isUtcTimestamp(value: string): boolean {
  const match = TIMESTAMP.exec(value);
  if (!match) return false;
  const [, date, hours, minutes, seconds] = match as unknown as [string, string, string, string, string];
  return isCalendarDate(date) && Number(hours) < 24 && Number(minutes) < 60 && Number(seconds) < 60;
}

/** A required date `YYYY-MM-DD` that must be a real calendar date (not 2025-02-30). */
export const calendarDate = (name: string) =>
  z
    .string({ error: `${name} must be a date YYYY-MM-DD` })
    .check(
      z.regex(DATE, `${name} must be a date YYYY-MM-DD`),
      z.refine(isCalendarDate, `${name} is not a calendar date`),
    )
    .register(z.globalRegistry, {
      description: `A calendar date \`YYYY-MM-DD\`; a day the month does not have (\`2026-02-30\`) is 422 \`validation_error\`.`,
    });

/** A required time `YYYY-MM-DDThh:mm:ssZ` that must be a real instant (not 2026-01-01T24:00:00Z). */
export const utcTimestamp = (name: string) =>
  z
    .string({ error: `${name} must be a timestamp YYYY-MM-DDThh:mm:ssZ` })
    .check(
      z.regex(TIME, `${name} must be an RFC 3339 UTC timestamp YYYY-MM-DDThh:mm:ssZ`),
      z.refine(isUtcTimestamp, `${name} is not a real time (a calendar date, 00:00:00 to 23:59:59)`),
    )
    .register(z.globalRegistry, {
      description: `A time in UTC, \`YYYY-MM-DDThh:mm:ssZ\`; a day the month does not have is 422 \`validation_error\`.`,
    });
