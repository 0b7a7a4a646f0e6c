/**
 * Browsing a register by name key (free): the entries whose name begins with the key, in the
 * register's alphabetical order, a page at a time. `totalCount` is null (the registry gives no
 * count); the signed cursor carries the registry's continuation and is bound to the register, the
 * key and the caller, so a changed key mid-pagination is 400 `validation_error` on `cursor`.
 */
import { type CursorCodec, type CursorScope, pageOfStore } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { RegistryCaller } from '../kernel/registry-port.ts';
import { presentRegisterEntry } from './present.ts';
import type { RegisterRegistry, RegistryRegisterEntry } from './registry-port.ts';
import { checkRegister, fromRegisters } from './request.ts';
import { MAX_BROWSE_KEY } from './schemas.ts';

export interface BrowseInput {
  register: string;
  browse: string;
  limit: number;
  cursor: string | undefined;
  /** The route the cursor is issued for. */
  route: string;
  owner: CursorScope['owner'];
  caller: RegistryCaller;
  registry: RegisterRegistry;
  cursors: CursorCodec;
}

/** The key as the registry is asked: trimmed, at most 100 characters (the schema has checked at least two). */
export function checkBrowseKey(browse: string): string {
  const key = browse.trim();
  if (key.length > MAX_BROWSE_KEY) {
    throw new ApiError('validation_error', {
      param: 'browse',
      message: `browse may hold at most ${MAX_BROWSE_KEY} characters.`,
    });
  }
  return key;
}

export async function browseRegister(input: BrowseInput) {
  const register = checkRegister(input.register);
  const key = checkBrowseKey(input.browse);
  const page = await pageOfStore<RegistryRegisterEntry, ReturnType<typeof presentRegisterEntry>>(
    {
      route: input.route,
      filters: { register, browse: key },
      owner: input.owner,
      limit: input.limit,
      cursor: input.cursor,
      codec: input.cursors,
    },
    async ({ limit, after }) => {
      const answer = await fromRegisters(
        input.registry.browseRegister({ register, key, limit, continuation: after ?? null }, input.caller),
        { '01': 'register', '02': 'browse', '51': 'browse' },
      );
      return { items: answer.entries, next: answer.continuation ?? undefined };
    },
    presentRegisterEntry,
  );
  return { object: 'list' as const, ...page };
}
