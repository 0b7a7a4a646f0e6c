/**
 * Buying a register entry extract exactly once, on the model of company extracts
 * (shared/companies/extracts.ts): the register and number are checked before any registry call; the
 * purchase is recorded before the registry is asked, with a client key derived from the purchase's
 * key, so a lost answer is asked again without a second charge; the answer is stored as a draft
 * before the header and fee entry are committed together, so a commit that fails leaves a draft the
 * retry (same Idempotency-Key) or the sweeper commits instead of buying again. Every purchase is new
 * and billed, as for companies.
 */
import { EXTRACT_DISCLAIMER } from '../companies/extracts.ts';
import { presentDocument } from '../companies/present.ts';
import {
  buyOnce,
  commitWithRetries,
  extractExpiry,
  feeEntryFor,
  headerFor,
  newPurchaseRecord,
  ownerOf,
  type PurchaseContext,
} from '../extracts/lifecycle.ts';
import type { ExtractPurchases, PurchaseRecord } from '../extracts/store-port.ts';
import { toTimestamp } from '../kernel/clock.ts';
import type { RegistryCaller } from '../kernel/registry-port.ts';
import { registerExtractProduct } from './fees.ts';
import { presentRegisterEntry, presentRegisterExtract, presentRegisterExtractEntry } from './present.ts';
import type {
  RegisterCode,
  RegisterExtractType,
  RegisterRegistry,
  RegistryRegisterExtract,
} from './registry-port.ts';
import { checkEntryNumber, checkRegister, registerError } from './request.ts';

export interface RegisterPurchaseInput extends PurchaseContext<RegisterRegistry> {
  register: string;
  number: string;
  history: boolean;
}

/** What a register purchase asked the registry, as its record keeps it. */
interface RegisterPurchaseAsked {
  register: RegisterCode;
  number: string;
  type: RegisterExtractType;
}

/** The key under which an account's extracts of one entry are held. */
export const registerSubjectKey = (register: string, number: string) => `${register}#${number}`;

const REJECTION_PARAMS = { '01': 'register', '02': 'history', '51': 'number' } as const;

export async function purchaseRegisterExtract(input: RegisterPurchaseInput) {
  const register = checkRegister(input.register);
  const number = checkEntryNumber(input.number);
  const type: RegisterExtractType = input.history ? 'historical' : 'current';
  const { extractPurchases, purchaseRecords } = input;
  const draft = input.recoveryKey
    ? await extractPurchases.findDraft(input.recoveryKey, input.now.toISOString())
    : undefined;
  let record = draft?.record;
  let sections = record?.answer ? draft?.sections : undefined;
  if (!record?.answer) {
    record = await purchaseRecords.startPurchase(
      newPurchaseRecord({
        key: input.recoveryKey,
        kind: 'register',
        owner: input.owner,
        requestId: input.requestId,
        clientReference: input.clientReference,
        now: input.now,
        asked: { register, number, type } satisfies RegisterPurchaseAsked,
      }),
    );
  }
  if (!record.answer) {
    const started = record;
    const bought = await buyOnce(purchaseRecords, started, 'number', () =>
      input.registry.purchaseRegisterExtract(
        { register, number, type },
        callerOf(started),
        started.clientKey,
      ),
    ).catch((error: unknown) => {
      throw registerError(error, REJECTION_PARAMS);
    });
    ({ record, sections } = await storeRegisterExtract(bought, started, extractPurchases));
  }
  const { header, fee } = record.answer as NonNullable<PurchaseRecord['answer']>;
  await commitWithRetries(() => extractPurchases.commit(header, fee, record));
  return {
    body: presentRegisterExtract(header.summary, sections ?? {}),
    billable: fee.billable,
    product: fee.product,
  };
}

const callerOf = (record: PurchaseRecord): RegistryCaller => ({
  accountId: record.accountId,
  requestId: record.requestId,
  clientReference: record.clientReference,
});

/**
 * The extract a registry answer makes, stored as the purchase's draft, with the record of what its
 * commit writes. (The purchase and the sweeper both store it.)
 */
export async function storeRegisterExtract(
  bought: RegistryRegisterExtract,
  record: PurchaseRecord,
  extractPurchases: ExtractPurchases,
): Promise<{ record: PurchaseRecord; sections: Record<string, unknown> }> {
  const asked = record.asked as unknown as RegisterPurchaseAsked;
  const expiresAt = toTimestamp(extractExpiry(new Date(record.purchasedAt)));
  const summary = {
    object: 'extract',
    id: record.extractId,
    kind: 'register',
    type: asked.type,
    subject: presentRegisterEntry(bought.entry),
    purchasedAt: record.purchasedAt,
    asOf: toTimestamp(new Date(bought.asOf)),
    expiresAt,
    clientReference: record.clientReference,
    disclaimer: EXTRACT_DISCLAIMER,
  };
  const sections = {
    entry: presentRegisterExtractEntry(bought),
    documents: bought.documents.map(presentDocument),
  };
  const header = headerFor(summary, {
    owner: ownerOf(record),
    requestId: record.requestId,
    kind: 'register',
    subjectKey: registerSubjectKey(asked.register, bought.entry.number),
  });
  const fee = feeEntryFor(header, {
    product: registerExtractProduct.product,
    feeCode: registerExtractProduct.feeCodes[asked.register],
  });
  const answered = { ...record, answer: { header, fee, batch: false } };
  await extractPurchases.saveSections(record.extractId, sections, expiresAt, answered);
  return { record: answered, sections };
}
