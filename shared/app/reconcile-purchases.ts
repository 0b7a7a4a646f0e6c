/**
 * Nothing the registry sold us is lost. A purchase is recorded before the registry is asked and
 * settled by its commit; the sweeper finishes every record left unsettled for a few minutes (the
 * client's retry with its Idempotency-Key usually comes first):
 *
 * - the answer was stored but the commit failed: the stored header and fee are committed;
 * - no answer was stored (it was lost, or came after the function ran out of time): the registry
 *   is asked what became of the purchase's client key. A completed purchase is stored and
 *   committed exactly as the purchase itself would have; one the registry never made is dropped;
 *   one still running waits for the next sweep.
 *
 * Extract ids derive from the purchase's key, and commits are conditional, so a sweep racing the
 * client's retry still writes one extract and one fee.
 */
import { storeCompanyExtract } from '../companies/extracts.ts';
import type { RegistryCompanyExtract } from '../companies/registry-port.ts';
import type { ExtractPurchases, PurchaseRecord, PurchaseRecords } from '../extracts/store-port.ts';
import type { Environment } from '../kernel/api-keys.ts';
import { logger } from '../kernel/observability.ts';
import { personExtractDraft, savePersonDraft } from '../people/purchase.ts';
import type { RegistryPersonExtract } from '../people/registry-port.ts';
import { storeRegisterExtract } from '../registers/purchase.ts';
import type { RegistryRegisterExtract } from '../registers/registry-port.ts';
import { storeWeeklySummary } from '../weekly-summaries/purchase.ts';
import type { RegistryWeeklySummary } from '../weekly-summaries/registry-port.ts';
import type { ExtractKindPart, ExtractKindRole, SettleDeps, SettleOutcome } from './extract-kind-parts.ts';
import type { Registry } from './registry.ts';

/** Longer than any request (29 s), so a sweep never races a purchase that is still running. */
export const UNSETTLED_AFTER_MS = 5 * 60_000;
const SWEEP_BATCH = 100;
/**
 * A purchase still unsettled this long after it was made is money at risk: the registry may have
 * charged us and the customer has no extract. The sweeper reports how many (`atRisk`), which an
 * alarm watches.
 */
export const AT_RISK_AFTER_MS = 60 * 60_000;

export interface ReconcileDeps {
  purchaseRecords: PurchaseRecords;
  extractPurchases: ExtractPurchases;
  registryFor(environment: Environment): Registry;
  now: Date;
}

export interface ReconcileReport {
  committed: number;
  /** The registry never made them: nothing was billed. */
  forgotten: number;
  /** Still running at the registry, or failed this time: left for the next sweep. */
  waiting: number;
  /** Of those left waiting, how many were made more than `AT_RISK_AFTER_MS` ago. */
  atRisk: number;
}

/**
 * The `store` and `reconcile` parts of a kind bought in one registry call under our client key:
 * an unsettled purchase without a stored answer is asked after at the registry, and a completed
 * one is stored by `store` exactly as the purchase would have; then the record is committed.
 */
function settledThroughRegistry(
  store: ExtractKindPart['store'],
): Pick<ExtractKindPart, 'store' | 'reconcile'> {
  const reconcile = async (record: PurchaseRecord, deps: SettleDeps): Promise<SettleOutcome> => {
    let answered = record;
    if (!record.answer) {
      const caller = {
        accountId: record.accountId,
        requestId: record.requestId,
        clientReference: record.clientReference,
      };
      const outcome = await deps.registry().findPurchase(record.clientKey, caller);
      if (outcome.state === 'none') {
        await deps.purchaseRecords.forgetPurchase(record);
        return 'forgotten';
      }
      if (outcome.state === 'pending') return 'waiting';
      answered = await store(outcome.result, record, deps);
    }
    const { header, fee, batch } = answered.answer as NonNullable<PurchaseRecord['answer']>;
    if (batch) await deps.extractPurchases.commitBatch([{ header, fee, settles: answered }]);
    else await deps.extractPurchases.commit(header, fee, answered);
    logger.warn('purchase committed by the sweeper', { extractId: header.id, requestId: record.requestId });
    return 'committed';
  };
  return { store, reconcile };
}

/** How the sweeper stores and settles each kind of extract. */
export const settleByKind = {
  company: settledThroughRegistry(
    async (answer, record, { extractPurchases }) =>
      (await storeCompanyExtract(answer as RegistryCompanyExtract, record, extractPurchases)).record,
  ),
  person: settledThroughRegistry(async (answer, record, { extractPurchases }) => {
    const draft = personExtractDraft(answer as RegistryPersonExtract, record);
    await savePersonDraft(extractPurchases, draft);
    return draft.record;
  }),
  register: settledThroughRegistry(
    async (answer, record, { extractPurchases }) =>
      (await storeRegisterExtract(answer as RegistryRegisterExtract, record, extractPurchases)).record,
  ),
  weeklySummary: settledThroughRegistry((answer, record, { extractPurchases, registry }) =>
    storeWeeklySummary(answer as RegistryWeeklySummary, record, extractPurchases, registry()),
  ),
} satisfies ExtractKindRole<'store' | 'reconcile'>;

export async function reconcilePurchases(deps: ReconcileDeps): Promise<ReconcileReport> {
  const before = new Date(deps.now.getTime() - UNSETTLED_AFTER_MS).toISOString();
  const records = await deps.purchaseRecords.unsettledPurchases(before, SWEEP_BATCH);
  const report: ReconcileReport = { committed: 0, forgotten: 0, waiting: 0, atRisk: 0 };
  const atRiskBefore = new Date(deps.now.getTime() - AT_RISK_AFTER_MS).toISOString();
  for (const record of records) {
    const leftWaiting = () => {
      report.waiting += 1;
      if (record.purchasedAt < atRiskBefore) report.atRisk += 1;
    };
    try {
      const registry = () => deps.registryFor(record.environment);
      const outcome = await settleByKind[record.kind].reconcile(record, {
        extractPurchases: deps.extractPurchases,
        purchaseRecords: deps.purchaseRecords,
        registry,
      });
      if (outcome === 'waiting') leftWaiting();
      else report[outcome] += 1;
    } catch (error) {
      logger.error('purchase not reconciled; the next sweep tries again', {
        extractId: record.extractId,
        requestId: record.requestId,
        error: error as Error,
      });
      leftWaiting();
    }
  }
  if (records.length > 0) logger.info('purchases reconciled', { ...report });
  return report;
}
