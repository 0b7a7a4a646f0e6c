/**
 * The registry protocol as the HTTP adapter and the registry simulator read it: a table of the
 * operations the capabilities declare (each in its own `registry-protocol.ts`, rows as in
 * shared/kernel/registry-protocol.ts), with what both ends derive from it, and the protocol's
 * rules that no operation changes (registry codes, the status of a rejection). The table of the
 * whole registry is shared/composition/registry/protocol.ts, documented in
 * docs/registry-protocol.md.
 */
import type {
  AnyOperationSpec,
  ArgumentKinds,
  RegistryOperationRows,
  WireArgs,
} from '../../kernel/registry-protocol.ts';

export interface RegistryProtocol<T extends RegistryOperationRows> {
  /** The rows, by operation name. */
  readonly rows: T;
  /** Every operation, in the table's order. */
  readonly operations: readonly (keyof T & string)[];
  isOperation(name: string): name is keyof T & string;
  /** One row of the table, typed loosely: for code that handles every operation alike. */
  spec(name: keyof T & string): AnyOperationSpec;
  /** Operations the registry bills: each carries our client key, so a lost answer may be asked again. */
  readonly billable: ReadonlySet<keyof T & string>;
  /**
   * Operations that carry our client key (every billable one, and the postal hand-over): the
   * registry answers a repeated key with the first call's outcome and does nothing more, so a lost
   * answer is retried like a read, and `purchase.outcome` tells what became of a key.
   */
  readonly keyed: ReadonlySet<keyof T & string>;
  /** The client key of a keyed call as it arrived (any JSON), or null. */
  clientKeyOf(name: keyof T & string, args: Record<string, unknown>): string | null;
  /** Checks an answer of the operation named (a completed purchase's result is checked like its operation's). */
  isResultOf(name: string, result: unknown): boolean;
}

/** The protocol of the operations in `rows`. */
export function registryProtocolOf<const T extends RegistryOperationRows>(rows: T): RegistryProtocol<T> {
  type Name = keyof T & string;
  const operations = Object.keys(rows) as Name[];
  const isOperation = (name: string): name is Name => Object.hasOwn(rows, name);
  const spec = (name: Name) => rows[name] as unknown as AnyOperationSpec;
  const isResultOf = (name: string, result: unknown): boolean =>
    isOperation(name) && spec(name).isResult(result, isResultOf);
  return {
    rows,
    operations,
    isOperation,
    spec,
    billable: new Set(operations.filter((name) => spec(name).billable)),
    keyed: new Set(operations.filter((name) => spec(name).clientKey !== undefined)),
    clientKeyOf(name, args) {
      const locate = spec(name).clientKey;
      if (!locate) return null;
      let key: unknown;
      try {
        key = locate(args as WireArgs<ArgumentKinds>);
      } catch {
        key = undefined;
      }
      return typeof key === 'string' ? key : null;
    },
    isResultOf,
  };
}

/** Registry codes are two capital letters and two digits (CE03, ON52, ZZ51…). */
export const REGISTRY_CODE_PATTERN = /^[A-Z]{2}\d{2}$/;

/** The HTTP status the protocol gives a registry rejection. */
export function rejectionStatus(code: string): number {
  if (code === 'ZZ51') return 503;
  if (code === 'ZZ53') return 500;
  return 422;
}

/** Seconds in the `Retry-After` header of a ZZ51 answer (the registry's maintenance window). */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300;
