/**
 * The spend guard's port: every billable route's purchase is held against the account's and the
 * key's monthly spend caps before its use case runs (shared/spend-caps/guard.ts), so that a
 * purchase that would pass a cap is refused before anything reaches the registry.
 */
import type { Environment } from '../api-keys.ts';

export interface HeldPurchase {
  /** The billable route (its name says what the purchase is charged under). */
  route: { readonly name: string };
  /** The validated request: path parameters and body ({} without one). */
  path: Record<string, unknown>;
  body: Record<string, unknown>;
  /** Who buys: the account, the key's environment and the key. */
  auth: { accountId: string; environment: Environment; keyId: string };
  requestId: string;
  /**
   * Names the purchase across retries (the Idempotency-Key's recovery key); a retry of a purchase
   * already held is not counted again. Undefined: the request id names it.
   */
  key: string | undefined;
}

/** A purchase's hold on the caps: settled to what it cost once it ran, released if it bought nothing. */
export interface SpendHold {
  /** The use case returned: count what the request's fee entries came to (nothing: released). */
  settle(): Promise<void>;
  /** The use case refused the purchase before anything was bought. */
  release(): Promise<void>;
}

export interface SpendGuard {
  /** Reserves the purchase's highest possible fee against every cap, or throws `spend_cap_exceeded`. */
  hold(purchase: HeldPurchase): Promise<SpendHold>;
}
