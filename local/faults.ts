import type { ExtractStore } from '../shared/ports/extracts.ts';

/**
 * Storage faults the local stack can inject (`/__local/faults`), to show that a purchase whose
 * final write fails is kept and finished by the retry, never bought twice.
 */
export class StorageFaults {
  /** How many of the next extract commits fail. */
  failCommits = 0;

  wrap(store: ExtractStore): ExtractStore {
    return new Proxy(store, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'commit' || typeof value !== 'function') {
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return async (...args: Parameters<ExtractStore['commit']>) => {
          if (this.failCommits > 0) {
            this.failCommits -= 1;
            throw new Error('injected fault: the extract commit failed');
          }
          return target.commit(...args);
        };
      },
    });
  }

  state() {
    return { failCommits: this.failCommits };
  }
}
