/**
 * Reserved concurrency of the functions that call the live registry, sized from the stage's
 * `registryConcurrency` (lib/stages.ts): the registry does not scale with us, so the number of
 * calls we can have in flight is capped at what it accepts. Each registry-calling function gets an
 * equal share, so a burst on one route cannot take the whole allowance from the others; a
 * throttled route answers 429 through the gateway (clients retry), a throttled workflow task or
 * sweep is retried by Step Functions or the next schedule.
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
