import { inject } from 'vitest';
import type { LocalStackContext } from './local-stack.ts';

const response = await fetch(`${inject('localStacks')}/${process.env.VITEST_POOL_ID ?? '1'}`);
if (!response.ok) throw new Error(`no local stack: ${await response.text()}`);

/** The local stack of this file's worker slot (test/support/local-stack.ts): its URLs, tables and secrets. */
export const localStack = (await response.json()) as LocalStackContext;
