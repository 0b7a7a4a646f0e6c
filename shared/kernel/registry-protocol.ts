/**
 * How a capability declares its operations of the registry protocol (docs/registry-protocol.md):
 * one row per operation, in its own `registry-protocol.ts`. The HTTP adapter sends them
 * (shared/adapters/registry-http/), the registry simulator answers them in front of any
 * implementation of the port, and the protocol page's table is generated from them.
 *
 * A row says which port method the operation serves and in which capability, whether the registry
 * bills it and where its client key is, which timeout it gets, its arguments on the wire, how the
 * simulator turns them back into the port call, how its result is checked, and (only when it
 * differs from the port's) how the result travels.
 */
import type { RegistryCaller } from './registry-port.ts';

/**
 * What an argument must be on the wire: a string, a JSON object, a list of strings or a list of
 * objects. Values are not checked beyond their JSON type: that is the registry's job.
 */
export type ArgumentKind = 'string' | 'object' | 'strings' | 'objects';

interface ArgumentValue {
  string: string;
  object: Record<string, unknown>;
  strings: string[];
  objects: Record<string, unknown>[];
}

export type ArgumentKinds = Readonly<Record<string, ArgumentKind>>;

/** The arguments of a call, as sent (caller aside). */
export type WireArgs<A extends ArgumentKinds> = { [K in keyof A]: ArgumentValue[A[K]] };

/** The methods of a port `P`. */
export type PortMethod<P> = {
  [K in keyof P]: P[K] extends (...args: never[]) => unknown ? K : never;
}[keyof P] &
  string;

/** What a port method takes. */
// biome-ignore lint/suspicious/noExplicitAny: the widest function type, as `Parameters` takes.
export type PortArgs<P, M extends keyof P> = Parameters<Extract<P[M], (...args: any) => any>>;

/** What a port method resolves to. */
export type PortResult<P, M extends keyof P> = P[M] extends (...args: never[]) => infer R
  ? Awaited<R>
  : never;

/** Checks a result of the operation named, whatever its capability (a purchase's outcome holds one). */
export type ResultCheck = (operation: string, result: unknown) => boolean;

declare const resultType: unique symbol;

/** A row as a capability writes it (`registryOperation` adds its capability). */
export interface OperationRow<P, M extends PortMethod<P>, A extends ArgumentKinds> {
  /** The port method the operation serves. */
  method: M;
  /** The registry bills it, once per client key. */
  billable: boolean;
  /** Where a keyed operation carries our client key; absent when the operation takes none. */
  clientKey?: (args: WireArgs<A>) => unknown;
  /** `long`: the purchase timeout (billable calls and image downloads); `lookup` otherwise. */
  timeout: 'lookup' | 'long';
  /** The arguments on the wire, beside `caller`. */
  args: A;
  /** The port call that answers the operation (the simulator): its arguments from the wire's. */
  toPort(args: WireArgs<A>, caller: RegistryCaller): PortArgs<P, M>;
  /** A shallow check of the result: enough to catch an answer of the wrong kind. */
  isResult(value: unknown, resultOf: ResultCheck): boolean;
  /** How the result travels, when not as the port's own value. */
  wire?: { encode(result: PortResult<P, M>): unknown; decode(value: unknown): PortResult<P, M> };
  /** Its row in docs/registry-protocol.md. */
  doc: { args: string; result: string };
  /** The port's result type (for the typed call; no value). */
  readonly [resultType]?: PortResult<P, M>;
}

export interface OperationSpec<P, M extends PortMethod<P>, A extends ArgumentKinds>
  extends OperationRow<P, M, A> {
  /** The capability whose port has the method (the protocol page's column). */
  capability: string;
}

/** The port interface a row's method belongs to. */
export type PortOfRow<S> = S extends OperationSpec<infer P, infer _M, infer _A> ? P : never;

/** A row, typed loosely: for code that handles every operation alike. */
export type AnyOperationSpec = OperationSpec<
  Record<string, (...args: never[]) => unknown>,
  string,
  ArgumentKinds
>;

/** Rows by operation name (`company.get`, `widgets.name`…). */
export type RegistryOperationRows = Readonly<Record<string, unknown>>;

/** What the operation `O` of `T` resolves to. */
export type OperationResult<T extends RegistryOperationRows, O extends keyof T> = T[O] extends {
  readonly [resultType]?: infer R;
}
  ? R
  : never;

/** The wire arguments of the operation `O` of `T`. */
export type OperationArgs<T extends RegistryOperationRows, O extends keyof T> = T[O] extends {
  args: infer A extends ArgumentKinds;
}
  ? WireArgs<A>
  : never;

/**
 * The row builder of one capability's port `P`:
 * `const operation = registryOperation<CompanyRegistry>('companies')`, then one
 * `operation({ method: 'getCompany', … })` per row.
 */
export const registryOperation =
  <P>(capability: string) =>
  <M extends PortMethod<P>, const A extends ArgumentKinds>(
    spec: OperationRow<P, M, A>,
  ): OperationSpec<P, M, A> => ({ ...spec, capability });

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A search's answer: how many matched, and the matches. */
export const isSearchResult = (value: unknown) =>
  isObject(value) && typeof value.found === 'number' && Array.isArray(value.matches);

/** The client key argument of an operation that carries its own (`clientKey`). */
export const ownClientKey = (args: { clientKey: string }) => args.clientKey;
