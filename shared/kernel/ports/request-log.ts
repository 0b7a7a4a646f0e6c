import type { ApiKeyRecord } from '../api-keys.ts';

/** What the service keeps of one admitted request, so that its account can find it by `X-Request-Id`. */
export interface RequestRecord {
  /** `req_…`, the `X-Request-Id` the response carried. */
  requestId: string;
  accountId: string;
  environment: ApiKeyRecord['environment'];
  keyId: string;
  /** The console session that made it, or null for a request made with the key itself. */
  sessionId: string | null;
  method: string;
  /** The path as called, without the query (`/v1/companies/603037190`). */
  path: string;
  /** The route's name (`GetCompany`). */
  route: string;
  status: number;
  /** The error envelope's `code`, or null for a success. */
  errorCode: string | null;
  /** When the request arrived (ISO 8601, UTC). */
  receivedAt: string;
  latencyMs: number;
}

/** Days a request record is kept (then DynamoDB's TTL removes it). */
export const REQUEST_RECORD_DAYS = 30;

export interface RequestLog {
  /** Keeps the record for `REQUEST_RECORD_DAYS`; one write of one small item, keyed by the request id. */
  record(entry: RequestRecord): Promise<void>;
  /** The record of this request id, of any account (the caller checks the owner). */
  find(requestId: string): Promise<RequestRecord | undefined>;
}
