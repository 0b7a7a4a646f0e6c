/** The idempotency runner's port: purchases run through it at most once per Idempotency-Key. */
import type { Context } from 'aws-lambda';

export interface IdempotentCall<T> {
  /** Who and where: account, environment, route and path, so keys never collide across them. */
  scope: string;
  key: string | undefined;
  /** What must match for a replay: the path and the parsed body. */
  request: unknown;
  context: Context;
  run: () => Promise<T>;
  /**
   * What is kept for a replay, when the result itself is too large for the idempotency record
   * (a DynamoDB item): `pack` reduces it to references, `unpack` rebuilds it from the store.
   */
  replay?: ReplayCodec<T>;
}

export interface ReplayCodec<T> {
  pack(result: T): unknown;
  unpack(packed: unknown): Promise<T>;
}

/** Runs a purchase at most once per key; purchase handlers pass `runIdempotently` to the pipeline. */
export type IdempotencyRunner = <T>(call: IdempotentCall<T>) => Promise<T>;
