/**
 * The console's pages, in navigation order. A page is one module exporting a `View`: adding one is
 * that module and one line here.
 */
import { audit } from './audit.ts';
import { caps } from './caps.ts';
import { endpoint } from './endpoint.ts';
import { extracts } from './extracts.ts';
import { keys } from './keys.ts';
import { members } from './members.ts';
import { monitor, monitors } from './monitors.ts';
import { orders } from './orders.ts';
import { overview } from './overview.ts';
import { passkeys } from './passkeys.ts';
import { requests } from './requests.ts';
import type { View } from './view.ts';
import { webhooks } from './webhooks.ts';

export const views: readonly View[] = [
  overview,
  extracts,
  orders,
  webhooks,
  endpoint,
  monitors,
  monitor,
  keys,
  caps,
  requests,
  members,
  audit,
  passkeys,
];
