/** Type helpers (no run-time code). */

/** `A | B | C` to `A & B & C`: the whole of what several declarations add up to. */
export type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (
  intersection: infer I,
) => void
  ? I
  : never;
