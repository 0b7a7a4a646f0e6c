/** The console's request example (the one operation of the published contract). */
import type { RequestExample } from '../kernel/http/request-example.ts';

export const consoleExamples: Readonly<Record<string, RequestExample>> = {
  CreateConsoleLink: {
    summary: "A sign-in link to the console for this key's account and environment, valid 5 minutes, once",
    body: {},
  },
};
