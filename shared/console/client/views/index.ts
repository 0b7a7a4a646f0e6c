/**
 * The console's pages, in navigation order. A page is one module exporting a `View`: adding one
 * (the monitors page, when the monitoring capability is in) is that module and one line here.
 */
import { endpoint } from './endpoint.ts';
import { extracts } from './extracts.ts';
import { keys } from './keys.ts';
import { orders } from './orders.ts';
import { overview } from './overview.ts';
import type { View } from './view.ts';
import { webhooks } from './webhooks.ts';

export const views: readonly View[] = [overview, extracts, orders, webhooks, endpoint, keys];
