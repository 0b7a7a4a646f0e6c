/**
 * What a capability sells, declared in its own `products.ts` (and named by its capability module):
 * each product with the name a person reads and its example price, and the charge of each of its
 * billable routes. The price catalogue (shared/usage/prices.ts), the quote and spend guard
 * (shared/mcp/fees.ts) and `GET /v1/usage`'s names derive from the list of them
 * (shared/usage/capability-products.ts), which, unlike the list of capabilities, a function may load.
 */

/** A product of the capability's own (no registry fee code): priced by the product alone. */
export interface CapabilityProduct {
  /** `product` of its fee entries and of its routes' `meta`. */
  readonly product: string;
  /** What `GET /v1/usage` and the console call it. */
  readonly name: string;
  /**
   * Cents per unit in the example schedule (local stack, sandbox and development stages). A live
   * stage states its own price in its committed settings (`prices`, lib/stages.ts): until it does,
   * that stage does not synthesize.
   */
  readonly examplePriceCents: number;
}

/** A billable route's request as its handler receives it (validated). */
export interface ChargedRequest {
  path: Record<string, unknown>;
  /** The body; {} for a route without one. */
  body: Record<string, unknown>;
}

/** What one purchase by a capability's billable route buys: how many units of which product. */
export interface ProductCharge {
  readonly product: string;
  readonly quantity: number;
}

export interface CapabilityProducts {
  readonly products: readonly CapabilityProduct[];
  /** The charge of each of its billable routes, by route name, from the validated request. */
  readonly charges: Readonly<Record<string, (request: ChargedRequest) => ProductCharge>>;
}

export const defineProducts = <const P extends CapabilityProducts>(products: P): P => products;
