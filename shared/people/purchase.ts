/**
 * Buying person extracts for 1 to 100 people of one search, all or nothing: every id is checked
 * before the registry is asked, the registry is asked with bounded concurrency, each answer is
 * kept as a draft, and all the extracts and their fees become visible in one commit.
 */

import './errors.ts';
import { personExtractProduct } from '../companies/products.ts';
import {
  buyOnce,
  commitWithRetries,
  extractExpiry,
  feeEntryFor,
  headerFor,
  newPurchaseKey,
  newPurchaseRecord,
  ownerOf,
  type PurchaseContext,
} from '../extracts/lifecycle.ts';
import type { Draft, ExtractPurchases, PurchaseRecord, PurchaseRecords } from '../extracts/store-port.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { RegistryCaller } from '../kernel/registry-port.ts';
import {
  PERSON_SECTION,
  personExtractToStore,
  presentPersonExtract,
  type StoredPersonExtract,
} from './present.ts';
import {
  MAX_ROLES_PER_NAME,
  type PeopleRegistry,
  type PersonExtractOptions,
  type RegistryPersonExtract,
} from './registry-port.ts';
import { assertOwnSearch, readableSearch } from './search.ts';
import type { FoundPerson, PeopleSearchStore } from './store-port.ts';

/** Registry calls in flight at once for one purchase. */
export const PURCHASE_CONCURRENCY = 25;

export const PERSON_EXTRACT_DISCLAIMER =
  'Extract of particulars held by the registry about a person, supplied under section 1274A of ' +
  'the Corporations Act 2001. The registry and this service do not warrant that the particulars are ' +
  'complete or free of error; verify them before relying on them. Display this notice with the extract.';

export interface PeoplePurchaseBody {
  searchId: string;
  personIds: string[];
  history?: boolean | undefined;
  includeShareholdings?: boolean | undefined;
}

export interface PeoplePurchaseInput extends PurchaseContext<PeopleRegistry> {
  body: PeoplePurchaseBody;
  searches: PeopleSearchStore;
}

function checkNoDuplicates(personIds: readonly string[]) {
  const seen = new Map<string, number>();
  for (const [index, id] of personIds.entries()) {
    const first = seen.get(id);
    if (first !== undefined) {
      throw new ApiError('validation_error', {
        param: `personIds[${index}]`,
        message: `${id} is given twice (personIds[${first}] and personIds[${index}]).`,
      });
    }
    seen.set(id, index);
  }
}

/** Each id as the search found it, in the order given; 403, 404 or 422 naming the entry. */
async function peopleToBuy(input: PeoplePurchaseInput, people: readonly FoundPerson[]) {
  const inSearch = new Map(people.map((person) => [person.id, person]));
  const chosen: FoundPerson[] = [];
  for (const [index, id] of input.body.personIds.entries()) {
    const param = `personIds[${index}]`;
    const person = inSearch.get(id);
    if (!person) {
      const elsewhere = await input.searches.getPerson(id);
      if (elsewhere) assertOwnSearch(elsewhere, input.owner, param);
      throw new ApiError('person_not_found', {
        param,
        message: `${id} is not one of the people search ${input.body.searchId} found.`,
      });
    }
    if (person.roleCount > MAX_ROLES_PER_NAME) throw tooManyRoles(id, param);
    chosen.push(person);
  }
  return chosen;
}

const tooManyRoles = (personId: string, param: string, registryCode: string | null = null) =>
  new ApiError('person_too_many_roles', {
    param,
    registryCode,
    message: `${personId} has more than ${MAX_ROLES_PER_NAME} roles; the registry sells no extract for this name. Nothing was bought.`,
    details: { personId },
  });

/** Runs `work` over `items` with at most `limit` in flight; stops starting new ones after a failure. */
async function eachWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}

export async function purchasePersonExtracts(input: PeoplePurchaseInput) {
  const { body, owner, extractPurchases, purchaseRecords, now } = input;
  checkNoDuplicates(body.personIds);
  // An earlier attempt's drafts are read while the search is checked; the search decides first.
  const draftsFound = input.recoveryKey
    ? extractPurchases.findDrafts(input.recoveryKey, now.toISOString())
    : Promise.resolve(new Map<string, Draft>());
  draftsFound.catch(() => undefined); // awaited below, unless the search is refused first
  const search = await readableSearch(input.searches, body.searchId, owner, now);
  const people = await peopleToBuy(input, search.people);
  const drafts = await draftsFound;
  const options = {
    history: body.history ?? false,
    includeShareholdings: body.includeShareholdings ?? false,
  };
  const caller: RegistryCaller = {
    accountId: owner.accountId,
    requestId: input.requestId,
    clientReference: input.clientReference,
  };
  const purchaseKey = input.recoveryKey ?? newPurchaseKey();
  const records = await recordPurchases(
    purchaseRecords,
    people
      .filter((person) => !drafts.has(person.id))
      .map((person) =>
        newPurchaseRecord({
          key: purchaseKey,
          slot: person.id,
          kind: 'person',
          owner,
          requestId: input.requestId,
          clientReference: input.clientReference,
          now,
          asked: { person, options } satisfies PersonPurchaseAsked,
        }),
      ),
  );
  const asked = new Set<string>();

  // Saving an answer does not hold up the next registry call: the saves run beside the calls.
  const saves: Promise<void>[] = [];
  const calling = eachWithConcurrency(people, PURCHASE_CONCURRENCY, async (person, index) => {
    const draft = drafts.get(person.id);
    if (draft) return draft;
    const param = `personIds[${index}]`;
    const record = await records.of(person.id);
    asked.add(person.id);
    const extract = await buyOnce(purchaseRecords, record, param, () =>
      input.registry.purchasePersonExtract(person.registryIdentifier, options, caller, record.clientKey),
    ).catch((error: unknown) => {
      throw error instanceof ApiError && error.code === 'person_too_many_roles'
        ? tooManyRoles(person.id, param, error.registryCode)
        : error;
    });
    const bought = personExtractDraft(extract, record);
    const save = savePersonDraft(extractPurchases, bought);
    save.catch(() => undefined); // observed below, once every call has ended
    saves.push(save);
    return bought;
  });
  const [calls] = await Promise.allSettled([calling]);
  // Every answer bought is saved, even when another call failed, so a retry can reuse it.
  const saved = await Promise.allSettled(saves);
  if (calls.status === 'rejected') {
    // The registry was never asked for these. Only records this request wrote are dropped: one
    // an earlier attempt left may stand for a purchase that attempt made, which the sweeper
    // settles with the registry.
    await Promise.all(
      (await records.stored())
        .filter((record) => !asked.has(record.slot) && record.requestId === input.requestId)
        .map((record) => purchaseRecords.forgetPurchase(record).catch(() => undefined)),
    );
    throw partlyBought(calls.reason, drafts.size + saves.length, people.length);
  }
  const failedSave = saved.find((result) => result.status === 'rejected');
  if (failedSave) throw failedSave.reason;
  const bought = calls.value;

  const purchases = bought.map((draft) => ({
    ...personCommit(storedOf(draft).summary, draft.record, input.requestId),
    settles: draft.record,
  }));
  await commitWithRetries(() => extractPurchases.commitBatch(purchases));
  return {
    extracts: bought.map((draft) => presentPersonExtract(storedOf(draft))),
    billable: owner.environment === 'live',
  };
}

/**
 * Records every purchase before the registry is asked for it (see `startPurchases`). The first
 * wave's records (as many as the calls in flight) are written first, and the registry calls start
 * once they are in; the others are written in a second transaction while those calls run, and
 * each later call waits for its own record.
 */
async function recordPurchases(purchaseRecords: PurchaseRecords, records: readonly PurchaseRecord[]) {
  const firstWave = await purchaseRecords.startPurchases(records.slice(0, PURCHASE_CONCURRENCY));
  const first = new Map(firstWave.map((record) => [record.slot, record]));
  const later = purchaseRecords
    .startPurchases(records.slice(PURCHASE_CONCURRENCY))
    .then((started) => new Map(started.map((record) => [record.slot, record])));
  later.catch(() => undefined); // awaited by the calls that need it, and by `stored`
  return {
    /** The record of one person's purchase, once written. */
    of: async (slot: string) => first.get(slot) ?? ((await later).get(slot) as PurchaseRecord),
    /** Every record known to be stored, once the second write has ended. */
    stored: async () => [
      ...first.values(),
      ...(await later.catch(() => new Map<string, PurchaseRecord>())).values(),
    ],
  };
}

/**
 * A batch that failed after the registry sold some of its extracts says so: they are kept, the
 * retry with the same Idempotency-Key finishes the purchase without buying them again, and without
 * a retry the sweeper records them.
 */
function partlyBought(error: unknown, bought: number, asked: number): unknown {
  if (!(error instanceof ApiError) || bought === 0) return error;
  return new ApiError(error.code, {
    message: `${error.message} ${bought} of the ${asked} extracts were bought before this failure and are kept: retry with the same Idempotency-Key to finish the purchase without buying them again. Without a retry they are recorded within 15 minutes and appear in GET /v1/extracts and GET /v1/usage.`,
    param: error.param,
    registryCode: error.registryCode,
    ...(error.details ? { details: error.details } : {}),
    status: error.status,
    headers: error.headers,
  });
}

const storedOf = (draft: Draft) => draft.sections[PERSON_SECTION] as StoredPersonExtract;

/** What a person extract purchase asked the registry, as its record keeps it. */
interface PersonPurchaseAsked {
  person: FoundPerson;
  options: PersonExtractOptions;
}

/** The header and fee entry that make a stored person extract visible (committed as a batch). */
function personCommit(summary: Record<string, unknown>, record: PurchaseRecord, requestId: string) {
  const { person } = record.asked as unknown as PersonPurchaseAsked;
  const header = headerFor(summary, {
    owner: ownerOf(record),
    requestId,
    kind: 'person',
    subjectKey: person.registryIdentifier,
  });
  return { header, fee: feeEntryFor(header, personExtractProduct) };
}

/** Stores a person extract's draft (its section, staged header and record). */
export const savePersonDraft = (extractPurchases: ExtractPurchases, draft: Draft) =>
  extractPurchases.saveSections(
    draft.id,
    draft.sections,
    draft.record.answer?.header.expiresAt as string,
    draft.record,
  );

/**
 * The draft a registry answer makes: the extract's one section, and the record with what its
 * commit writes. (The purchase and the sweeper both build it.)
 */
export function personExtractDraft(extract: RegistryPersonExtract, record: PurchaseRecord): Draft {
  const { person, options } = record.asked as unknown as PersonPurchaseAsked;
  const summary = {
    object: 'extract',
    id: record.extractId,
    kind: 'person',
    type: extract.type,
    includeShareholdings: options.includeShareholdings,
    subject: person.match,
    purchasedAt: record.purchasedAt,
    asOf: toTimestamp(new Date(extract.asOf)),
    expiresAt: toTimestamp(extractExpiry(new Date(record.purchasedAt))),
    clientReference: record.clientReference,
    disclaimer: PERSON_EXTRACT_DISCLAIMER,
    person: {
      id: person.id,
      registryIdentifier: extract.person.registryIdentifier,
      name: person.match.name,
      birth: person.match.birth,
      formerName: person.match.formerName,
    },
  };
  const answer = { ...personCommit(summary, record, record.requestId), batch: true };
  return {
    id: record.extractId,
    sections: { [PERSON_SECTION]: personExtractToStore(summary, extract) },
    record: { ...record, answer },
  };
}
