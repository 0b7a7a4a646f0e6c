/**
 * What the service charges: a price per product and fee code, in cents of one currency, as a
 * schedule of versions with effective dates (docs/usage.md, "Prices"). A stage's schedule is a
 * committed setting (`prices` in lib/stages.ts) that CDK hands every function as
 * `PRICE_SCHEDULE`; a fee entry records the price and version in force when it was written, so a
 * later version never changes what a past purchase cost.
 */
import {
  chargesExtractProduct,
  companyExtractProducts,
  documentImageProduct,
  offlineSearchProduct,
  personExtractProduct,
  weeklySummaryProduct,
} from '../companies/products.ts';
import { type PriceSchedule, priceKey, useExamplePrices } from '../kernel/prices.ts';
import { registerExtractProduct } from '../registers/fees.ts';
import { capabilityProducts } from './capability-products.ts';

/** The products the capabilities declare (each priced by the product alone). */
const ownProducts = capabilityProducts.flatMap(({ products }) => products);

const keysOf = (product: string, feeCodes: Record<string, string>) => [
  ...new Set(Object.values(feeCodes).map((code) => priceKey(product, code))),
];

/** Every item the service bills: each product with each fee code it is charged under. */
export const PRICED_ITEMS: readonly string[] = [
  ...Object.values(companyExtractProducts).map(({ product, feeCode }) => priceKey(product, feeCode)),
  priceKey(personExtractProduct.product, personExtractProduct.feeCode),
  ...keysOf(chargesExtractProduct.product, chargesExtractProduct.feeCodes),
  ...keysOf(documentImageProduct.product, documentImageProduct.feeCodes),
  priceKey(offlineSearchProduct.product, offlineSearchProduct.feeCode),
  ...keysOf(weeklySummaryProduct.product, weeklySummaryProduct.feeCodes),
  ...keysOf(registerExtractProduct.product, registerExtractProduct.feeCodes),
  ...ownProducts.map(({ product }) => priceKey(product, null)),
];

/** The name a person reads for each product (the console never shows a raw product id or fee code). */
export const PRODUCT_NAMES: Readonly<Record<string, string>> = {
  [companyExtractProducts.current.product]: 'Current company extracts',
  [companyExtractProducts.historical.product]: 'Historical company extracts',
  [companyExtractProducts.relational.product]: 'Company relationship extracts',
  [personExtractProduct.product]: 'Personal name extracts',
  [chargesExtractProduct.product]: 'Charges extracts',
  [documentImageProduct.product]: 'Document images',
  [offlineSearchProduct.product]: 'Offline name searches',
  [weeklySummaryProduct.product]: 'Weekly summaries',
  [registerExtractProduct.product]: 'Register extracts',
  ...Object.fromEntries(ownProducts.map(({ product, name }) => [product, name])),
};

const uniform = (cents: number, keys: readonly string[]) =>
  Object.fromEntries(keys.map((key) => [key, cents]));

/**
 * Example prices, marked `example`: the schedule of the local stack and of every stage that states
 * none. A live stage refuses to synthesize with it (lib/settings.ts).
 */
export const EXAMPLE_PRICE_SCHEDULE: PriceSchedule = {
  currency: 'AUD',
  example: true,
  versions: [
    {
      effectiveFrom: '2020-01-01',
      prices: {
        ...uniform(1500, keysOf(registerExtractProduct.product, registerExtractProduct.feeCodes)),
        ...uniform(6000, keysOf(weeklySummaryProduct.product, weeklySummaryProduct.feeCodes)),
        ...uniform(1200, keysOf(documentImageProduct.product, documentImageProduct.feeCodes)),
        ...uniform(1800, keysOf(chargesExtractProduct.product, chargesExtractProduct.feeCodes)),
        [priceKey(companyExtractProducts.current.product, companyExtractProducts.current.feeCode)]: 2500,
        [priceKey(companyExtractProducts.historical.product, companyExtractProducts.historical.feeCode)]:
          4000,
        [priceKey(companyExtractProducts.relational.product, companyExtractProducts.relational.feeCode)]:
          3500,
        [priceKey(personExtractProduct.product, personExtractProduct.feeCode)]: 2200,
        [priceKey(offlineSearchProduct.product, offlineSearchProduct.feeCode)]: 3000,
        ...Object.fromEntries(
          ownProducts.map(({ product, examplePriceCents }) => [priceKey(product, null), examplePriceCents]),
        ),
      },
    },
  ],
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (value: unknown): value is string =>
  typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** The schedule `value` as a `PriceSchedule`, or an error naming what is wrong with it. */
export function checkPriceSchedule(value: unknown, name = 'prices'): PriceSchedule {
  const fail = (problem: string): never => {
    throw new Error(`setting ${name} ${problem}`);
  };
  if (typeof value !== 'object' || value === null) return fail('must be a price schedule object');
  const { currency, example, versions } = value as Record<string, unknown>;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    fail(`currency must be an ISO 4217 code such as AUD, got ${String(currency)}`);
  if (typeof example !== 'boolean') fail('example must be true or false');
  if (!Array.isArray(versions) || versions.length === 0) return fail('must have at least one version');
  let previous = '';
  for (const version of versions as unknown[]) {
    const { effectiveFrom, prices } = (version ?? {}) as Record<string, unknown>;
    if (!isDate(effectiveFrom))
      return fail(`has a version whose effectiveFrom is not a date: ${String(effectiveFrom)}`);
    if (effectiveFrom <= previous)
      fail(`versions must be in order of effectiveFrom, each later: ${effectiveFrom}`);
    previous = effectiveFrom;
    if (typeof prices !== 'object' || prices === null) return fail(`version ${effectiveFrom} has no prices`);
    const missing = PRICED_ITEMS.filter((key) => !Object.hasOwn(prices, key));
    if (missing.length > 0) fail(`version ${effectiveFrom} prices nothing for ${missing.join(', ')}`);
    for (const [key, cents] of Object.entries(prices)) {
      if (!PRICED_ITEMS.includes(key))
        fail(`version ${effectiveFrom} prices ${key}, which is not a product and fee code`);
      if (typeof cents !== 'number' || !Number.isInteger(cents) || cents < 0)
        fail(`version ${effectiveFrom} price of ${key} must be whole cents, got ${String(cents)}`);
    }
  }
  return value as PriceSchedule;
}

useExamplePrices(EXAMPLE_PRICE_SCHEDULE);
