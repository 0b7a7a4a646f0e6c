/**
 * What every kind of extract shares: ids, owners, the 12-month life, the draft a purchase leaves
 * for its retry, the header and fee entry a purchase commits, and the checks a read makes.
 */

import { createHash, randomBytes } from 'node:crypto';
import { isSameOwner, type Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { HandlerResult } from '../kernel/http/handler-types.ts';
import type { FeeEntry } from '../kernel/ports/fee-ledger.ts';
import { recordedPrice } from '../kernel/prices.ts';
import { apiErrorFromRegistry } from '../kernel/registry-errors.ts';
import { RegistryRejection } from '../kernel/registry-port.ts';
import {
  type ExtractHeader,
  type ExtractKind,
  type ExtractPurchases,
  type HeldExtracts,
  type PurchaseRecord,
  type PurchaseRecords,
  SINGLE_PURCHASE,
  type StoredExtract,
} from './store-port.ts';

export const EXTRACT_ID_PATTERN = /^ext_[0-9a-f]{24}$/;

const EXTRACT_LIFETIME_MONTHS = 12;
const DRAFT_VALIDITY_MS = 24 * 3600_000;
const COMMIT_ATTEMPTS = 3;

/** What every extract purchase is given besides what it buys. */
export interface PurchaseContext<R> {
  owner: Owner;
  requestId: string;
  clientReference: string | null;
  /** Set when the client sent an Idempotency-Key: lets a retry finish a purchase whose write failed. */
  recoveryKey: string | undefined;
  now: Date;
  registry: R;
  heldExtracts: HeldExtracts;
  extractPurchases: ExtractPurchases;
  purchaseRecords: PurchaseRecords;
}

export function extractExpiry(purchasedAt: Date): Date {
  const expiry = new Date(purchasedAt);
  expiry.setUTCMonth(expiry.getUTCMonth() + EXTRACT_LIFETIME_MONTHS);
  return expiry;
}

export const isUnexpired = (extract: { expiresAt: string }, now: Date) =>
  Date.parse(extract.expiresAt) > now.getTime();

/** The key of a purchase sent without an Idempotency-Key. */
export const newPurchaseKey = () => randomBytes(16).toString('hex');

/**
 * Records a purchase before the registry is asked (see `PurchaseRecord`). Its client key and
 * extract id are derived from the purchase's key and slot, so a retry with the same
 * Idempotency-Key, and the sweeper, finish the same purchase under the same extract id; without a
 * key the purchase gets a random one, which the sweeper can still reconcile.
 */
export function newPurchaseRecord(purchase: {
  key: string | undefined;
  slot?: string;
  kind: ExtractKind;
  owner: Owner;
  requestId: string;
  clientReference: string | null;
  now: Date;
  asked: Record<string, unknown>;
}): PurchaseRecord {
  const key = purchase.key ?? newPurchaseKey();
  const slot = purchase.slot ?? SINGLE_PURCHASE;
  const derived = (purpose: string) =>
    createHash('sha256').update(`${purpose}\u0000${key}\u0000${slot}`).digest('hex');
  return {
    key,
    slot,
    clientKey: `pur_${derived('registry').slice(0, 32)}`,
    extractId: `ext_${derived('extract').slice(0, 24)}`,
    kind: purchase.kind,
    accountId: purchase.owner.accountId,
    environment: purchase.owner.environment,
    requestId: purchase.requestId,
    clientReference: purchase.clientReference,
    purchasedAt: toTimestamp(purchase.now),
    validUntil: new Date(purchase.now.getTime() + DRAFT_VALIDITY_MS).toISOString(),
    asked: purchase.asked,
  };
}

/** The owner a record was made for. */
export const ownerOf = (record: PurchaseRecord): Owner => ({
  accountId: record.accountId,
  environment: record.environment,
});

/**
 * Asks the registry for a purchase, turning its failures into client errors on `param`. A refusal
 * means nothing was bought, so the purchase's record is dropped; any other failure leaves it for
 * the retry or the sweeper to reconcile.
 */
export async function buyOnce<T>(
  records: PurchaseRecords,
  record: PurchaseRecord,
  param: string,
  buy: () => Promise<T>,
): Promise<T> {
  try {
    return await buy();
  } catch (error) {
    if (error instanceof RegistryRejection) await records.forgetPurchase(record).catch(() => undefined);
    throw apiErrorFromRegistry(error, param);
  }
}

/**
 * The registry has charged by now: a failing commit is retried in place (it is idempotent)
 * before giving up. What is still failing after that stays a draft for the client's retry.
 */
export async function commitWithRetries<T>(commit: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await commit();
    } catch (error) {
      if (attempt >= COMMIT_ATTEMPTS) throw error;
      await new Promise((done) => setTimeout(done, 100 * 2 ** attempt));
    }
  }
}

/** The stored header of an extract from its summary (the extract object without its sections). */
export function headerFor(
  summary: Record<string, unknown>,
  extract: { owner: Owner; requestId: string; kind: ExtractKind; subjectKey: string },
): ExtractHeader {
  return {
    id: summary.id as string,
    accountId: extract.owner.accountId,
    environment: extract.owner.environment,
    kind: extract.kind,
    type: summary.type as string,
    subjectKey: extract.subjectKey,
    purchasedAt: summary.purchasedAt as string,
    asOf: summary.asOf as string,
    expiresAt: summary.expiresAt as string,
    clientReference: summary.clientReference as string | null,
    requestId: extract.requestId,
    summary,
  };
}

/**
 * One extract's fee entry: billed with its fee code on live keys, recorded without one on test keys;
 * with the price in force (what a test key's use would have cost).
 */
export function feeEntryFor(
  header: ExtractHeader,
  { product, feeCode }: { product: string; feeCode: string },
): FeeEntry {
  const billable = header.environment === 'live';
  return {
    accountId: header.accountId,
    environment: header.environment,
    at: header.purchasedAt,
    product,
    feeCode: billable ? feeCode : null,
    quantity: 1,
    billable,
    clientReference: header.clientReference,
    requestId: header.requestId,
    resourceId: header.id,
    ...recordedPrice(product, feeCode, header.purchasedAt),
  };
}

/** 404, 403 or 410 for an extract id the caller names, in that order of precedence. */
export function assertReadable(
  header: ExtractHeader | undefined,
  owner: Owner,
  now: Date,
  param = 'id',
): ExtractHeader {
  if (!header) throw new ApiError('extract_not_found', { param, message: 'No extract has this id.' });
  if (!isSameOwner(header, owner)) {
    throw new ApiError('extract_owner_mismatch', {
      param,
      message:
        header.accountId !== owner.accountId
          ? 'This extract belongs to another account.'
          : `This extract was bought with a ${header.environment} key; use a ${header.environment} key to read it.`,
    });
  }
  if (!isUnexpired(header, now)) {
    throw new ApiError('extract_expired', {
      param,
      message: `This extract expired on ${header.expiresAt}, 12 months after purchase. Buy a new one for current data.`,
    });
  }
  return header;
}

export interface ExtractRef {
  id: string;
  type: string;
  purchasedAt: string;
  asOf: string;
}

/** The `extract` reference a list read from a held extract carries. */
export const extractRefOf = (extract: ExtractRef): ExtractRef => ({
  id: extract.id,
  type: extract.type,
  purchasedAt: extract.purchasedAt,
  asOf: extract.asOf,
});

/** An extract an earlier attempt of a purchase stored, as its replay shows it again. */
export async function presentPurchasedExtract<T>(
  store: Pick<HeldExtracts, 'getExtract'>,
  id: string,
  present: (stored: StoredExtract) => T,
): Promise<T> {
  const stored = await store.getExtract(id);
  if (!stored) throw new Error(`extract ${id} of an earlier purchase is missing`);
  return present(stored);
}

/**
 * The replay of a purchase that answers one extract: a large extract can outgrow an idempotency
 * record, so the record keeps the extract's id (and the fee's billing and product) and a replay
 * reads the extract back and presents it as the purchase did.
 */
export const oneExtractReplay = (
  ports: { readonly heldExtracts: Pick<HeldExtracts, 'getExtract'> },
  present: (stored: StoredExtract) => Record<string, unknown>,
) => ({
  pack: (result: HandlerResult) => ({
    id: (result.body as { id: string }).id,
    billable: result.billable,
    product: result.product,
  }),
  async unpack(packed: unknown): Promise<HandlerResult> {
    const { id, billable, product } = packed as { id: string; billable: boolean; product: string };
    // The port is read here, at the replay, never when the handler is built.
    return { body: await presentPurchasedExtract(ports.heldExtracts, id, present), billable, product };
  },
});

/** An id that is not an extract id names no extract: 404 before any read. */
export function checkExtractId(id: string, param = 'id') {
  if (!EXTRACT_ID_PATTERN.test(id)) {
    throw new ApiError('extract_not_found', {
      param,
      message: 'Extract ids look like ext_ and 24 hex digits.',
    });
  }
}

/** A held extract of any kind its caller may read (`GET /v1/extracts/{id}`): 404, 403 or 410 otherwise. */
export async function readHeldExtract(
  store: Pick<HeldExtracts, 'getExtract'>,
  id: string,
  owner: Owner,
  now: Date,
): Promise<StoredExtract> {
  checkExtractId(id);
  // One query: a weekly summary's items are in a partition of their own, never read whole.
  const stored = await store.getExtract(id);
  const header = assertReadable(stored?.header, owner, now);
  return { header, sections: (stored as StoredExtract).sections };
}
