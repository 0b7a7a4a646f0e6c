import { bearerToken, hashKey, isKeyUsable, keyIdForHash, usedHour } from '../../api-keys.ts';
import { ApiError } from '../../errors/api-error.ts';
import { logger } from '../../observability.ts';
import type { PlatformPorts } from '../../ports/platform.ts';
import { decideRate } from '../../rate-limit.ts';
import {
  type ConsoleSessionRecord,
  CSRF_HEADER,
  cookieToken,
  csrfMatches,
  hashToken,
  isSessionUsable,
  SAFE_METHODS,
  SESSION_COOKIE,
} from '../../sessions.ts';
import type { ApiMiddleware, ApiState } from './state.ts';

/**
 * Authentication and the per-key limits (600 requests per sliding minute, 20 in flight).
 *
 * The credential is the bearer key or, without one, a console session cookie standing for a key
 * (shared/kernel/sessions.ts): the session is read first, then its key exactly as a bearer key is,
 * so a revoked key ends its sessions at once, and a session's requests count against its key's
 * limits. A change made with a session needs the session's CSRF token.
 *
 * The key lookup and the limit update run side by side: the limit state is keyed by the key id,
 * which is derived from the key's hash, so it is known before the lookup answers. A request that
 * fails authentication or is over a limit is uncounted and touches nothing else; an admitted one
 * holds a concurrency lease until its response is ready.
 */
export const admit = (ports: PlatformPorts): ApiMiddleware => {
  const release = async (state: ApiState) => {
    const lease = state.lease;
    if (!lease) return;
    state.lease = undefined;
    await ports.limiter.release(lease.keyId, state.requestId, {
      removeSlots: lease.stale,
      ...(lease.uncount ? { uncountSlot: lease.slot } : {}),
    });
  };
  return {
    before: async (request) => {
      const state = request.context.api;
      const { apiKeys, limiter, clock } = ports;
      const now = clock.now();
      const secret = bearerToken(state.raw.headers.authorization);
      let session: ConsoleSessionRecord | undefined;
      if (!secret) {
        const token = cookieToken(state.raw.headers.cookie, SESSION_COOKIE);
        if (!token) throw new ApiError('unauthorized');
        session = await apiKeys.findSession(hashToken(token));
        if (!session || !isSessionUsable(session, now)) throw new ApiError('unauthorized');
        if (
          !SAFE_METHODS.has(state.raw.method) &&
          !csrfMatches(state.raw.headers[CSRF_HEADER], session.csrfToken)
        )
          throw new ApiError('csrf_token_invalid');
      }
      const hash = secret ? hashKey(secret) : (session as ConsoleSessionRecord).keyHash;
      const keyId = keyIdForHash(hash);
      const [record, acquired] = await Promise.all([
        apiKeys.findByHash(hash),
        limiter.acquire(keyId, state.requestId, now),
      ]);
      if (acquired.ok) state.lease = { keyId, slot: acquired.slot, stale: acquired.stale, uncount: false };

      if (!record || !isKeyUsable(record, now)) {
        if (state.lease) state.lease.uncount = true;
        await release(state);
        throw new ApiError('unauthorized');
      }
      state.auth = {
        accountId: record.accountId,
        environment: record.environment,
        keyId,
        ...(session
          ? {
              session: {
                sessionId: session.sessionId,
                csrfToken: session.csrfToken,
                expiresAt: session.expiresAt,
              },
            }
          : {}),
      };
      logger.appendKeys({ accountId: record.accountId, environment: record.environment, keyId });
      // The key's last use, to the hour: a write only when the hour it shows has passed, so at most
      // one per key per hour, never one per request. A failure to record it fails no request.
      const hour = usedHour(now);
      if (record.lastUsedHour === undefined || record.lastUsedHour < hour)
        await apiKeys.recordUse(hash, hour).catch((error: unknown) => {
          logger.warn("could not record the key's last use", { error });
        });

      if (!acquired.ok) {
        state.rate = decideRate(acquired.counts ?? {}, now.getTime());
        throw new ApiError('rate_limited', {
          message: 'Too many concurrent requests for this API key (limit 20). Retry after 1 second.',
          headers: { 'Retry-After': '1' },
        });
      }
      const rate = decideRate(acquired.counts, now.getTime());
      state.rate = rate;
      if (!rate.allowed) {
        if (state.lease) state.lease.uncount = true;
        await release(state);
        throw new ApiError('rate_limited', {
          message: `More than ${rate.limit} requests in the last minute for this API key. Retry after ${rate.retryAfterSeconds} seconds.`,
          headers: { 'Retry-After': String(rate.retryAfterSeconds) },
        });
      }
    },
    after: async (request) => release(request.context.api),
    onError: async (request) => {
      if (request.context.api) await release(request.context.api);
    },
  };
};
