/** Reading, setting and clearing spend caps (`/v1/spend-caps…`). */

import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import './errors.ts';
import type { AuthContext } from '../kernel/http/handler-types.ts';
import { stagePrices } from '../kernel/prices.ts';
import { alertReached } from './alerts.ts';
import { monthOf, presentSpendCap, type SpendCapView } from './present.ts';
import type { CapScope, SpendCap, SpendCapStore } from './store-port.ts';

export interface CapsContext {
  spendCaps: SpendCapStore;
  auth: AuthContext;
  now: Date;
}

/** The scope a path names: the account, or one of its keys in the caller's environment (404 otherwise). */
export async function scopeOf(context: CapsContext, keyId: string | undefined): Promise<CapScope> {
  if (keyId === undefined) return { kind: 'account' };
  const { accountId, environment } = context.auth;
  if (!(await context.spendCaps.hasKey(accountId, environment, keyId))) {
    throw new ApiError('api_key_not_found', {
      param: 'keyId',
      message: `The account has no ${environment} API key with this id.`,
    });
  }
  return { kind: 'key', keyId };
}

async function view(context: CapsContext, scope: CapScope, cap: SpendCap | undefined): Promise<SpendCapView> {
  const { accountId, environment } = context.auth;
  const month = monthOf(context.now);
  const counter = await context.spendCaps.counter(accountId, environment, scope, month);
  return presentSpendCap({ environment, scope, cap, counter, month }, stagePrices());
}

const sameScope = (a: CapScope, b: CapScope) =>
  a.kind === b.kind && (a.kind === 'account' || a.keyId === (b as { keyId: string }).keyId);

export async function readCap(context: CapsContext, scope: CapScope): Promise<SpendCapView> {
  const { accountId, environment } = context.auth;
  const caps = await context.spendCaps.listCaps(accountId, environment);
  return view(
    context,
    scope,
    caps.find((cap) => sameScope(cap.scope, scope)),
  );
}

/** The account's cap (set or not) and every key cap set, each with this month's spend. */
export async function listCaps(context: CapsContext): Promise<SpendCapView[]> {
  const { accountId, environment } = context.auth;
  const caps = await context.spendCaps.listCaps(accountId, environment);
  const account = caps.find((cap) => cap.scope.kind === 'account');
  const keys = caps.filter((cap) => cap.scope.kind === 'key');
  return Promise.all([
    view(context, { kind: 'account' }, account),
    ...keys.map((cap) => view(context, cap.scope, cap)),
  ]);
}

/**
 * Whether the caller may raise or remove a cap: only an admin member's console session, a person
 * signed in with their own address. A key, and a session opened with a key's link (which stands for
 * the key), may set a cap where none is and lower one, never raise or remove one: a leaked or
 * looping key, or an agent holding it, cannot undo the limit that holds it.
 */
export const mayRaiseCaps = (auth: AuthContext): boolean =>
  auth.session?.member !== undefined && auth.session.role === 'admin';

function raiseForbidden(scope: CapScope, change: 'raise' | 'remove'): ApiError {
  const which = scope.kind === 'account' ? "the account's spend cap" : `key ${scope.keyId}'s spend cap`;
  return new ApiError('spend_cap_raise_forbidden', {
    message: `Only an admin member signed in to the console may ${change} ${which}; an API key, or a session opened with one, may only set a cap where none is set or lower one.`,
  });
}

/**
 * Sets a cap. Without `mayRaiseCaps` the write is conditioned on the stored cap being absent or at
 * least the new amount, so a concurrent raise by an admin is never undone into a higher cap. A cap
 * at or below what the month already spent alerts its thresholds at once.
 */
export async function setCap(
  context: CapsContext,
  scope: CapScope,
  body: { amountCents: number; alertEmails?: readonly string[] },
): Promise<SpendCapView> {
  const cap: SpendCap = {
    accountId: context.auth.accountId,
    environment: context.auth.environment,
    scope,
    amountCents: body.amountCents,
    alertEmails: [...new Set(body.alertEmails ?? [])],
    updatedAt: toTimestamp(context.now),
  };
  const written = await context.spendCaps.putCap(cap, { onlyLowering: !mayRaiseCaps(context.auth) });
  if (!written) throw raiseForbidden(scope, 'raise');
  await alertReached(context.spendCaps, cap, monthOf(context.now), context.now);
  return view(context, scope, cap);
}

export async function clearCap(context: CapsContext, scope: CapScope): Promise<SpendCapView> {
  if (!mayRaiseCaps(context.auth)) throw raiseForbidden(scope, 'remove');
  await context.spendCaps.deleteCap(context.auth.accountId, context.auth.environment, scope);
  return view(context, scope, undefined);
}

/** The context of a caps route's handler. */
export const capsContext = (
  ports: { spendCaps: SpendCapStore; clock: { now(): Date } },
  auth: AuthContext,
): CapsContext => ({ spendCaps: ports.spendCaps, auth, now: ports.clock.now() });
