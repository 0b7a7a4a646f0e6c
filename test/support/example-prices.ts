/**
 * The catalog's example prices for code that records a price without `PRICE_SCHEDULE` set (as CDK
 * sets it on every function): loading the catalog registers them (shared/usage/prices.ts).
 */
import '../../shared/usage/prices.ts';
