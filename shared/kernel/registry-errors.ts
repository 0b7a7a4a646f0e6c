import { ApiError } from './errors/api-error.ts';
import { errorCodeForRegistryCode } from './errors/catalogue.ts';
import { RegistryRejection } from './registry-port.ts';

/**
 * Spec 7.3: a ZZ51 in a known maintenance window is retried after 300 seconds. When the registry
 * says itself how long (its own `Retry-After`), that is passed on instead.
 */
const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

/** The registry's own `Retry-After` on a ZZ51 (the HTTP adapter keeps it in `details`), at least 1 s. */
function maintenanceRetryAfter(details: Record<string, unknown> | undefined): string {
  const seconds = details?.retryAfterSeconds;
  return String(
    typeof seconds === 'number' && Number.isFinite(seconds)
      ? Math.max(1, Math.ceil(seconds))
      : MAINTENANCE_RETRY_AFTER_SECONDS,
  );
}

/** A purchase whose registry answer was lost: never say that nothing was charged. */
export const PURCHASE_OUTCOME_UNKNOWN =
  "The registry's answer to this purchase was lost, so whether it was made is not known yet. Retry with the same Idempotency-Key: you get the purchase if it was made, and are never charged twice (a retry without the key is a new purchase). If you don't retry, a purchase the registry made is recorded within 15 minutes and appears in GET /v1/extracts and GET /v1/usage.";

/**
 * The client-facing error for a registry failure: a rejection is looked up in the catalogue by
 * its registry code (an unknown code is an application error); an unreachable registry is 503.
 */
export function apiErrorFromRegistry(error: unknown, param: string | null = null): unknown {
  if (error instanceof RegistryRejection) {
    const code = errorCodeForRegistryCode(error.registryCode) ?? 'registry_application_error';
    return new ApiError(code, {
      // Universal errors (ZZ…) are about the product or the registry, never about one parameter.
      param: error.registryCode.startsWith('ZZ') || code === 'registry_application_error' ? null : param,
      registryCode: error.registryCode,
      message: error.message || undefined,
      // Only the documented details reach clients (the adapter's own hints stay inside).
      ...(error.details?.counts ? { details: { counts: error.details.counts } } : {}),
      ...(code === 'registry_unavailable'
        ? { headers: { 'Retry-After': maintenanceRetryAfter(error.details) } }
        : {}),
    });
  }
  if (error instanceof Error && error.name === 'RegistryUnreachable') {
    const { outcomeUnknown } = error as Error & { outcomeUnknown?: boolean };
    return new ApiError('registry_unavailable', {
      message: outcomeUnknown
        ? PURCHASE_OUTCOME_UNKNOWN
        : 'The registry did not answer in time. Nothing was charged; retry with backoff.',
    });
  }
  return error;
}

/** Awaits a registry call, turning its failures into client errors on `param`. */
export async function fromRegistry<T>(call: Promise<T>, param: string | null = null): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw apiErrorFromRegistry(error, param);
  }
}
