/**
 * Builds a module-level value: `export const x = /* @__PURE__ *\/ shakable(() => z.object({…}))`.
 * It runs `build` at once, as the plain `z.object({…})` would; the annotation tells esbuild that
 * the call has no side effect, so a Lambda bundle that does not use `x` drops it and never builds
 * it. The route and schema modules build every value this way (scripts/shakable.ts,
 * docs/decisions/0108-routes-built-on-use.md).
 */
export const shakable = <T>(build: () => T): T => build();
