/**
 * Reserved concurrency of the functions that call the live registry, sized from the stage's
 * `registryConcurrency` (lib/stages.ts): the registry does not scale with us, so the number of
 * calls we can have in flight is capped at what it accepts. Each registry-calling function gets an
 * equal share, so a burst on one route cannot take the whole allowance from the others, and one
 * account may hold only part of a route's share (`registryAccountShare`, enforced per request by
 * the limiter). A throttled route answers 503 with Retry-After through the gateway
 * (INTEGRATION_FAILURE, lib/gateway-responses.ts), an account over its part 429 from the function;
 * a throttled workflow task or sweep is retried by Step Functions or the next schedule.
 */

/**
 * How many functions call the registry: routes with `usesRegistry`, workflow tasks needing it, and
 * the scheduled ones (the sweeper, the reference refresh).
 */
export interface RegistryCallers {
  readonly routes: number;
  readonly workflowTasks: number;
  readonly scheduled: number;
}

/** The reserved concurrency of each registry-calling function, or undefined when the stage reserves none. */
export function registryShare(capacity: number | undefined, callers: RegistryCallers): number | undefined {
  if (capacity === undefined) return undefined;
  const count = callers.routes + callers.workflowTasks + callers.scheduled;
  const share = Math.floor(capacity / count);
  if (share < 1) {
    throw new Error(
      `setting registryConcurrency (${capacity}) is below the ${count} functions that call the registry: ` +
        'each needs at least 1 (raise it in lib/stages.ts or leave it unset to reserve nothing)',
    );
  }
  return share;
}

/**
 * Requests one account may have in flight on one registry route: half the route's reserved share,
 * rounded down, so that one account (whatever number of keys it holds) can never take a route's
 * capacity whole, and at least as much is left for the others. Prod: 160 calls over 33 callers (company monitoring's run among them) is
 * a share of 4, so an account holds at most 2 of a route's 4 instances and 2 stay for everyone else.
 * A share of 1 cannot be split: the synth fails (raise `registryConcurrency`).
 */
export function registryAccountShare(share: number | undefined): number | undefined {
  if (share === undefined) return undefined;
  if (share < 2) {
    throw new Error(
      `each registry-calling function's share of registryConcurrency is ${share}: one account could take ` +
        'a whole route; raise registryConcurrency in lib/stages.ts to give each caller at least 2',
    );
  }
  return Math.floor(share / 2);
}
