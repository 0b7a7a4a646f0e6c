/**
 * The order in which capabilities' build-time modules are built or started (their CDK constructs,
 * their local stand-ins): the list's, a module whose `after` is not placed yet left for a later pass.
 */
export function buildOrder<T extends { readonly capability: string; readonly after?: readonly string[] }>(
  modules: readonly T[],
): T[] {
  const ordered: T[] = [];
  let waiting = [...modules];
  while (waiting.length > 0) {
    const left: T[] = [];
    for (const module of waiting) {
      const ready = (module.after ?? []).every((name) => ordered.some((done) => done.capability === name));
      (ready ? ordered : left).push(module);
    }
    if (left.length === waiting.length) {
      const stuck = left.map((module) => `${module.capability} (after ${module.after?.join(', ')})`);
      throw new Error(
        `capability modules cannot be ordered (a cycle, or none by that name): ${stuck.join('; ')}`,
      );
    }
    waiting = left;
  }
  return ordered;
}
