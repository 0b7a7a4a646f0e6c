/**
 * What a quote answers: the product and fee code a purchase is charged under, worked out from the
 * route's validated request with the capabilities' own product definitions, priced from the
 * stage's schedule (the prices `GET /v1/usage` records on each fee entry). Where the fee code is
 * only known once the registry answers (a charges extract's scope, whose record a document was
 * lodged against), the quote is the highest fee the purchase can cost, marked `maxPossible`, so a
 * `maxFee` of the quote is still a true cap.
 */
import {
  chargesExtractProduct,
  companyExtractProducts,
  documentImageProduct,
  offlineSearchProduct,
  personExtractProduct,
  weeklySummaryProduct,
} from '../companies/products.ts';
import type { CompanyExtractType } from '../companies/registry-port.ts';
import type { RouteDefinition } from '../kernel/http/route.ts';
import { type PriceSchedule, priceAt } from '../kernel/prices.ts';
import type { ChargedRequest } from '../kernel/products.ts';
import { registerExtractProduct } from '../registers/fees.ts';
import { checkRegister } from '../registers/request.ts';
import { capabilityProducts } from '../usage/capability-products.ts';
import { checkWeeklySummaryRequest } from '../weekly-summaries/purchase.ts';

/** A route's request as its handler receives it (validated). */
export type ParsedRequest = ChargedRequest;

/** What one purchase is charged under: the fee codes it may be, and how many fees. */
export interface Charge {
  product: string;
  /**
   * One code: the fee code (null: a product of our own, priced by itself). More: the registry picks
   * one at the purchase; the quote takes the dearest.
   */
  feeCodes: readonly (string | null)[];
  quantity: number;
  /** True where the fee is only a cap: the purchase may cost less (another fee code, or no fee). */
  maxPossible: boolean;
}

const one = (product: string, feeCode: string, quantity = 1, maxPossible = false): Charge => ({
  product,
  feeCodes: [feeCode],
  quantity,
  maxPossible,
});

const distinct = (codes: Record<string, string>) => [...new Set(Object.values(codes))];

/** The charges the capabilities declare (their products.ts): one product, priced by itself. */
const capabilityCharges = Object.fromEntries(
  capabilityProducts.flatMap(({ charges }) =>
    Object.entries(charges).map(([route, charge]) => [
      route,
      (request: ParsedRequest): Charge => {
        const { product, quantity } = charge(request);
        return { product, feeCodes: [null], quantity, maxPossible: false };
      },
    ]),
  ),
);

/** The charge of each billable route, by route name, from its validated request. */
const CHARGES: Record<string, (request: ParsedRequest, now: Date) => Charge> = {
  ...capabilityCharges,
  PurchaseCompanyExtract: ({ body }) => {
    const { product, feeCode } = companyExtractProducts[body.type as CompanyExtractType];
    return one(product, feeCode);
  },
  PurchasePersonExtracts: ({ body }) =>
    one(personExtractProduct.product, personExtractProduct.feeCode, (body.personIds as unknown[]).length),
  PurchaseRegisterExtract: ({ path }) =>
    one(
      registerExtractProduct.product,
      registerExtractProduct.feeCodes[checkRegister(String(path.register))],
    ),
  // A summary already held is answered without a fee unless `refresh` is true.
  PurchaseWeeklySummary: ({ body }, now) =>
    one(
      weeklySummaryProduct.product,
      weeklySummaryProduct.feeCodes[
        checkWeeklySummaryRequest(String(body.type), String(body.weekStarting), now)
      ],
      1,
      body.refresh !== true,
    ),
  CreateOfflineSearch: () => one(offlineSearchProduct.product, offlineSearchProduct.feeCode),
  // 955E or 955C: which one follows the company's charges, read from the registry at the order.
  OrderChargesExtract: () => ({
    product: chargesExtractProduct.product,
    feeCodes: distinct(chargesExtractProduct.feeCodes),
    quantity: 1,
    maxPossible: true,
  }),
  // One fee per document, its code by whose record it was lodged against (known once the registry
  // answers); supplementary documents (form 902) come free.
  OrderDocumentImages: ({ body }) => ({
    product: documentImageProduct.product,
    feeCodes: distinct(documentImageProduct.feeCodes),
    quantity: (body.documents as unknown[]).length,
    maxPossible: true,
  }),
};

/** The charge of a purchase by a billable route; a billable route without one is a programming error. */
export function chargeOf(route: Pick<RouteDefinition, 'name'>, request: ParsedRequest, now: Date): Charge {
  const charge = CHARGES[route.name];
  if (!charge) throw new Error(`${route.name} is billable but has no quote (shared/mcp/fees.ts)`);
  return charge(request, now);
}

/** The names of the routes quoted, for the test that every billable route has a charge. */
export const QUOTED_ROUTES: readonly string[] = Object.keys(CHARGES);

export interface Fee {
  product: string;
  /** The fee code; null where the registry picks it at the purchase (`maxPossible`). */
  feeCode: string | null;
  quantity: number;
  unitAmountCents: number;
  /** What the purchase costs (or at most costs, with `maxPossible`), in cents. */
  amountCents: number;
  currency: string;
  /** The price version (its effective date) the fee is from. */
  priceVersion: string;
  maxPossible: boolean;
  /** False for a test key: the purchase is not billed (test keys are never charged). */
  billed: boolean;
  /** The stage's prices are example prices (local stack, sandbox and development stages). */
  examplePrices: boolean;
}

/** The fee of one purchase at `at` (ISO timestamp) under the schedule. */
export function feeOf(
  schedule: PriceSchedule,
  route: Pick<RouteDefinition, 'name'>,
  request: ParsedRequest,
  options: { at: string; billed: boolean },
): Fee {
  const { product, feeCodes, quantity, maxPossible } = chargeOf(route, request, new Date(options.at));
  let dearest: { feeCode: string | null; unitAmountCents: number; priceVersion: string } | undefined;
  for (const feeCode of feeCodes) {
    const price = priceAt(schedule, product, feeCode, options.at);
    if (price === undefined) {
      // A checked schedule prices every item (PRICED_ITEMS) from its first version on.
      throw new Error(`no price for ${product}/${feeCode} at ${options.at}`);
    }
    if (dearest === undefined || price.unitAmountCents > dearest.unitAmountCents)
      dearest = { feeCode, ...price };
  }
  const { feeCode, unitAmountCents, priceVersion } = dearest as NonNullable<typeof dearest>;
  return {
    product,
    feeCode: feeCodes.length === 1 ? feeCode : null,
    quantity,
    unitAmountCents,
    amountCents: unitAmountCents * quantity,
    currency: schedule.currency,
    priceVersion,
    maxPossible,
    billed: options.billed,
    examplePrices: schedule.example,
  };
}
