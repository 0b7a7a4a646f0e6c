/**
 * The typed client (clients/typescript/) pointed at the local stack, every response of which is
 * checked against the contract like the test client's (`checkContract`). Tests written with it
 * are type-checked against docs/openapi.json: a contract change that breaks them breaks
 * `npm run typecheck`.
 */
import { type CompanyRegisterClient, createCompanyRegisterClient } from '../../clients/typescript/index.ts';
import { type ApiResponse, baseUrl } from './api.ts';
import { checkContract } from './contract.ts';

const checkedFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  const json = (response.headers.get('content-type') ?? '').includes('json');
  const text = await response.clone().text();
  const body: unknown = json && text !== '' ? JSON.parse(text) : null;
  checkContract(request.method, request.url, { status: response.status, headers: response.headers, body });
  return response;
};

/** A typed client for a key; no retries unless asked for (tests assert single answers). */
export const typedClient = (apiKey: string, retries = 0): CompanyRegisterClient =>
  createCompanyRegisterClient({ baseUrl, apiKey, fetch: checkedFetch, retries });

/** An openapi-fetch result as the test client's `ApiResponse`, for `expectError` and friends. */
export function asApiResponse<T>(result: { data?: T; error?: unknown; response: Response }): ApiResponse<T> {
  const body = (result.data ?? result.error ?? null) as T;
  return {
    status: result.response.status,
    headers: result.response.headers,
    body,
    text: JSON.stringify(body),
  };
}
