import { describe, expect, it } from 'vitest';
import { capabilityList } from '../../shared/app/capabilities.ts';
import { routeList } from '../../shared/app/routes.ts';
import { QUOTED_ROUTES } from '../../shared/mcp/fees.ts';
import { capabilityProducts } from '../../shared/usage/capability-products.ts';
import { EXAMPLE_PRICE_SCHEDULE, PRICED_ITEMS, PRODUCT_NAMES } from '../../shared/usage/prices.ts';

/**
 * The products each capability declares (shared/kernel/products.ts): the list functions load
 * (shared/usage/capability-products.ts) holds exactly the capability modules' `products`, and the
 * catalogue, the names and the quotes derive from it.
 */
describe("the capabilities' products", () => {
  it('are listed for functions exactly as the capability modules declare them', () => {
    const declared = capabilityList.flatMap((capability) =>
      capability.products ? [capability.products] : [],
    );
    expect(declared.length).toBeGreaterThan(0);
    expect(new Set(capabilityProducts)).toEqual(new Set(declared));
    expect(capabilityProducts).toHaveLength(declared.length);
  });

  it('are priced, named and quoted: monitoring is', () => {
    expect(PRICED_ITEMS).toContain('monitoring');
    expect(PRODUCT_NAMES.monitoring).toBe('Company monitoring');
    expect(EXAMPLE_PRICE_SCHEDULE.versions[0]?.prices.monitoring).toBe(1);
  });

  it("charges each capability's billable routes under one of its own products", () => {
    for (const { products, charges } of capabilityProducts) {
      for (const [name, charge] of Object.entries(charges)) {
        const route = routeList.find((candidate) => candidate.name === name);
        expect(route, name).toMatchObject({ billable: true });
        const { product } = charge({ path: {}, body: {} });
        expect(products.map((declared) => declared.product)).toContain(product);
        expect(route?.product).toBe(product);
        expect(QUOTED_ROUTES).toContain(name);
      }
    }
  });
});
