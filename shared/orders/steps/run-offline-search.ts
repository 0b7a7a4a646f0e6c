import { presentCompanyMatch } from '../../companies/present.ts';
import { toTimestamp } from '../../kernel/clock.ts';
import type { Mailer } from '../../kernel/ports/mailer.ts';
import {
  encodeOfflineResults,
  offlineResultsCsv,
  offlineResultsKey,
  readOfflineResults,
} from '../results.ts';
import type { BlobStore, OfflineSearchStore } from '../store-port.ts';
import {
  type Clock,
  callerOf,
  isFinished,
  loadSearch,
  type RegistryFor,
  type WorkflowInput,
} from './common.ts';
import { SIMULATED_FAILURE, STEP_ERRORS, StepFailure } from './failure.ts';
import { registryCall } from './registry-call.ts';

export interface RunOfflineSearchPorts extends Clock {
  searches: Pick<OfflineSearchStore, 'get' | 'transition'>;
  registryFor: RegistryFor;
  blobs: BlobStore;
  mailer: Mailer;
}

/** Runs the search (once: its results are kept), then emails them when asked. */
export async function runOfflineSearch(ports: RunOfflineSearchPorts, input: WorkflowInput) {
  const search = await loadSearch(ports.searches, input.id);
  if (isFinished(search.status)) return { resultCount: search.resultCount };
  if (search.status === 'pending') {
    await ports.searches.transition(search.id, {
      from: ['pending'],
      to: 'processing',
      at: toTimestamp(ports.now()),
    });
  }
  if (search.simulateFailure) throw new StepFailure(STEP_ERRORS.rejected, SIMULATED_FAILURE);
  const { blobs } = ports;
  const key = offlineResultsKey(search.id);
  let matches: Record<string, unknown>[];
  if (await blobs.exists(key)) {
    matches = await readOfflineResults(blobs, key);
  } else {
    const found = await registryCall(() =>
      ports.registryFor(search.environment).searchCompaniesOffline(
        { name: search.q, scope: search.scope as 'current' | 'all' },
        callerOf(search),
        // The search id keys the registry's search: a step retried after a lost answer is not billed again.
        search.id,
      ),
    );
    matches = found.matches.map(presentCompanyMatch);
    await blobs.put(key, encodeOfflineResults(matches), 'application/json');
  }
  if (search.delivery.method === 'email') {
    await ports.mailer.send({
      to: search.delivery.email,
      subject: `Offline search ${search.id}: ${matches.length} companies matching ${search.q}`,
      text: `Your offline name search for "${search.q}" (scope ${search.scope}) found ${matches.length} companies. They are attached as CSV.\n\nCompany Register Data Service`,
      attachments: [
        {
          filename: `${search.id}.csv`,
          contentType: 'text/csv',
          content: new Uint8Array(Buffer.from(offlineResultsCsv(matches))),
        },
      ],
      idempotencyKey: `${search.id}#email`,
    });
  }
  return { resultCount: matches.length };
}
