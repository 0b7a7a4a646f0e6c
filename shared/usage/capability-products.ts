/**
 * The products of the capabilities that declare theirs (each its `products.ts`, kernel/products.ts):
 * the price catalogue, the quotes and the usage report's names derive from this list. Kept apart
 * from the list of capabilities (shared/app/capabilities.ts) because functions load it: a
 * products module imports nothing but the kernel and its own constants. A capability with products
 * is one line here too (`npm run new:capability -- NAME` writes it; test/unit/capabilities.test.ts
 * checks the two lists agree).
 */
import type { CapabilityProducts } from '../kernel/products.ts';
import { monitoringProducts } from '../monitoring/products.ts';

export const capabilityProducts: readonly CapabilityProducts[] = [monitoringProducts];
