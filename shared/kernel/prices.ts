/**
 * Prices as data: a schedule of versions with effective dates, in cents of one currency, and the
 * price a fee entry records when it is written (docs/usage.md, "Prices"). Knows no product: the
 * catalog of what is priced, and the example schedule, are shared/usage/prices.ts's. A stage's
 * schedule reaches every function as `PRICE_SCHEDULE` (set by CDK); where it is unset (the local
 * stack, tests) the example schedule the catalog registered is used.
 */
/** One version of the prices: in force from 00:00 UTC of `effectiveFrom` (also its name) until the next. */
export interface PriceVersion {
  readonly effectiveFrom: string;
  /** Cents per unit, by price key (`priceKey`): every priced item, nothing else. */
  readonly prices: Readonly<Record<string, number>>;
}

export interface PriceSchedule {
  /** ISO 4217 code of every amount (`AUD`: the register's fees are Australian dollars). */
  readonly currency: string;
  /** Example prices (local stack, sandbox and development stages): shown as such, never billed as real. */
  readonly example: boolean;
  /** Oldest first; a change adds a version with a later `effectiveFrom` and keeps the old ones. */
  readonly versions: readonly PriceVersion[];
}

/** The key of a product's price: `<product>/<fee code>`, or the product alone for our own products. */
export const priceKey = (product: string, feeCode: string | null) =>
  feeCode === null ? product : `${product}/${feeCode}`;

/** A price in force: the cents per unit and the version (its `effectiveFrom`) they come from. */
export interface PriceInForce {
  unitAmountCents: number;
  priceVersion: string;
}

/** The price of an item at a time (an ISO timestamp), or undefined before the first version. */
export function priceAt(
  schedule: PriceSchedule,
  product: string,
  feeCode: string | null,
  at: string,
): PriceInForce | undefined {
  const day = at.slice(0, 10);
  const version = schedule.versions.findLast((candidate) => candidate.effectiveFrom <= day);
  const cents = version?.prices[priceKey(product, feeCode)];
  return version === undefined || cents === undefined
    ? undefined
    : { unitAmountCents: cents, priceVersion: version.effectiveFrom };
}

/** Env var holding the stage's schedule as JSON, set by CDK on every function. */
export const PRICE_SCHEDULE_ENV = 'PRICE_SCHEDULE';

let parsed: { text: string | undefined; schedule: PriceSchedule } | undefined;
let examples: PriceSchedule | undefined;

/** The schedule used where `PRICE_SCHEDULE` is unset: the catalog's example prices (shared/usage/prices.ts). */
export function useExamplePrices(schedule: PriceSchedule): void {
  examples = schedule;
  parsed = undefined;
}

/**
 * The stage's schedule: `PRICE_SCHEDULE` as CDK sets it on every function, or the example schedule
 * where it is unset (the local stack and tests). A deploy-time constant, read once; CDK checked it
 * against the catalog when it synthesized the stage (lib/settings.ts).
 */
export function stagePrices(env: NodeJS.ProcessEnv = process.env): PriceSchedule {
  const text = env[PRICE_SCHEDULE_ENV];
  if (parsed !== undefined && parsed.text === text) return parsed.schedule;
  const schedule = text === undefined ? examples : (JSON.parse(text) as PriceSchedule);
  if (schedule === undefined) throw new Error(`no price schedule: ${PRICE_SCHEDULE_ENV} is unset`);
  parsed = { text, schedule };
  return schedule;
}

/**
 * The price a fee entry records when it is written: the stage's price in force at `at` of its
 * product and the fee code it is charged under — on test keys too, whose entries carry no fee
 * code but show what the same use would have cost.
 */
export const recordedPrice = (product: string, feeCode: string | null, at: string): Partial<PriceInForce> =>
  priceAt(stagePrices(), product, feeCode, at) ?? {};
