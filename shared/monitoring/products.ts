/** What company monitoring sells (kernel/products.ts): monitored company-days, billed by its daily job. */
import { defineProducts } from '../kernel/products.ts';
import { MONITORING_PRODUCT } from './settings.ts';

export const monitoringProducts = defineProducts({
  products: [{ product: MONITORING_PRODUCT, name: 'Company monitoring', examplePriceCents: 1 }],
  // No route is billable: the daily check writes one fee entry per monitored company-day.
  charges: {},
});
