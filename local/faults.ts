import type { ExtractPurchases } from '../shared/extracts/store-port.ts';

/**
 * Storage faults the local stack can inject (`/__local/faults`), to show that a purchase whose
 * final write fails is kept and finished by the retry, never bought twice.
 */
export class StorageFaults {
  /** How many of the next extract commits fail. */
  failCommits = 0;

  wrap(store: ExtractPurchases): ExtractPurchases {
    return new Proxy(store, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        if (property !== 'commit' && property !== 'commitBatch') return value.bind(target);
        return async (...args: unknown[]) => {
          if (this.failCommits > 0) {
            this.failCommits -= 1;
            throw new Error('injected fault: the extract commit failed');
          }
          return value.apply(target, args);
        };
      },
    });
  }

  state() {
    return { failCommits: this.failCommits };
  }
}
