/** Spend caps through the API, for the HTTP tests of caps (test/http/spend-caps*.test.ts). */
import { call, type FeeEntryBody, type TestKey } from './api.ts';

export interface SpendCapBody {
  object: string;
  scope: string;
  keyId: string | null;
  amountCents: number | null;
  currency: string;
  month: string;
  spentCents: number;
  remainingCents: number | null;
  alertThresholds: number[];
  alertsSent: number[];
  alertEmails: string[];
  billed: boolean;
  examplePrices: boolean;
  updatedAt: string | null;
}

export const capOf = (key: TestKey, path: string) =>
  call<SpendCapBody>(`/v1/spend-caps/${path}`, { key: key.secret });
export const setCap = (key: TestKey, path: string, body: Record<string, unknown>) =>
  call<SpendCapBody>(`/v1/spend-caps/${path}`, { key: key.secret, method: 'PUT', body });
export const usageOf = async (key: TestKey) =>
  (await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: key.secret })).body.data;
export const alertsOf = async (key: TestKey) =>
  (
    await call<{ data: { type: string; data: { threshold: number; cap: SpendCapBody } }[] }>(
      '/v1/events?type=spend_cap.threshold_reached',
      { key: key.secret },
    )
  ).body.data;
