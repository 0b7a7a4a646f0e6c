import { bearerToken, usedHour } from '../../api-keys.ts';
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
  roleMayCall,
  SAFE_METHODS,
  SESSION_COOKIE,
} from '../../sessions.ts';
import { credentialOf } from '../credential.ts';
import type { RouteDefinition } from '../route.ts';
import type { ApiMiddleware, ApiState } from './state.ts';

/**
 * Authentication and the per-key limits (600 requests per sliding minute, 20 in flight).
 *
 * The credential is the bearer key or, without one, a console session cookie standing for a key
 * (shared/kernel/sessions.ts): the session is read first, then its key exactly as a bearer key is,
 * so a revoked key ends its sessions at once, and a session's requests count against its key's
 * limits. A change made with a session needs the session's CSRF token.
 *
 * The key is looked up first and the limit state updated only for a usable key, so that a request
 * with an unknown, revoked or expired key writes nothing (a stream of made-up keys cannot grow the
 * limits table or cost a write each). It costs one GetItem's latency (a few milliseconds) before
 * the limit update. A request over a limit is uncounted and touches nothing else; an admitted one
 * holds a concurrency lease until its response is ready.
 */
export const admit = (
  ports: PlatformPorts,
  route: Pick<RouteDefinition, 'name' | 'consoleRoles'>,
): ApiMiddleware => {
  const release = async (state: ApiState) => {
    const routeLease = state.routeLease;
    if (routeLease) {
      state.routeLease = undefined;
      await ports.limiter.release(routeLease.holder, state.requestId, { removeSlots: routeLease.stale });
    }
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
      const credential = await credentialOf(apiKeys, secret, session, now);
      if (!credential) throw new ApiError('unauthorized');
      // The role is the service's check, not the page's: a member's session (or a key's, an admin)
      // may call only the routes its role is listed on, whatever the page shows.
      if (session && !roleMayCall(route.consoleRoles, session.member?.role ?? 'admin'))
        throw new ApiError('console_role_forbidden');
      const { accountId, environment, keyId, record } = credential;
      const acquired = await limiter.acquire(keyId, state.requestId, now);
      if (acquired.ok) state.lease = { keyId, slot: acquired.slot, stale: acquired.stale, uncount: false };
      state.auth = {
        accountId,
        environment,
        keyId,
        ...(session
          ? {
              session: {
                sessionId: session.sessionId,
                csrfToken: session.csrfToken,
                expiresAt: session.expiresAt,
                role: session.member?.role ?? 'admin',
                ...(session.member
                  ? { member: { memberId: session.member.memberId, email: session.member.email } }
                  : {}),
              },
            }
          : {}),
      };
      logger.appendKeys({ accountId, environment, keyId });
      // The key's last use, to the hour: a write only when the hour it shows has passed, so at most
      // one per key per hour, never one per request. A failure to record it fails no request.
      const hour = usedHour(now);
      if (record && (record.lastUsedHour === undefined || record.lastUsedHour < hour))
        await apiKeys.recordUse(credential.hash as string, hour).catch((error: unknown) => {
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

      // A registry route's reserved concurrency is shared by every account: one account may hold
      // only part of it (lib/registry-capacity.ts), so the others keep the rest. CDK sets the
      // limit on the functions of registry routes only, on stages that reserve registry capacity.
      const inFlight = ports.config.registryAccountInFlight;
      if (inFlight !== undefined) {
        const holder = `${route.name}#${accountId}`;
        const held = await limiter.acquire(holder, state.requestId, now, inFlight);
        if (!held.ok) {
          if (state.lease) state.lease.uncount = true;
          await release(state);
          throw new ApiError('rate_limited', {
            message: `Too many of this account's ${route.name} requests in flight (limit ${inFlight}). Retry after 1 second.`,
            headers: { 'Retry-After': '1' },
          });
        }
        state.routeLease = { holder, stale: held.stale };
      }
    },
    after: async (request) => release(request.context.api),
    onError: async (request) => {
      if (request.context.api) await release(request.context.api);
    },
  };
};
