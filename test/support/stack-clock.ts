/**
 * Every HTTP file leaves its slot's stack at the real time: a file that moves the clock (the
 * sweeper's five minutes in `sweepLater`, a cap's next month) must not shift the next file's times.
 */
import { afterAll } from 'vitest';
import { clock } from './api.ts';

afterAll(async () => {
  await clock.reset();
});
