/** Ids of orders and offline searches: light enough for every order function to import. */
import { createHash } from 'node:crypto';
import { newId } from '../kernel/ids.ts';

export const ORDER_ID_PATTERN = /^ord_[0-9a-f]{24}$/;
export const OFFLINE_SEARCH_ID_PATTERN = /^ofs_[0-9a-f]{24}$/;

/** The prefix and 24 hex digits: derived from the Idempotency-Key scope when there is one. */
export const idFor = (prefix: 'ord_' | 'ofs_', recoveryKey: string | undefined) =>
  recoveryKey === undefined
    ? newId(prefix)
    : `${prefix}${createHash('sha256').update(`${prefix}${recoveryKey}`).digest('hex').slice(0, 24)}`;
