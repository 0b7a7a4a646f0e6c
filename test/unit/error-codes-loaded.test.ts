import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A capability's error codes are known to `ApiError` and to the registry-code map only once its
 * `errors.ts` has loaded (docs/decisions/0102-capability-codes-and-order.md), so a function that throws
 * one, or calls a registry operation that rejects with one, must import it: without it the client
 * gets a 500 or a 502 instead of the code. Read from the import graph of each function's entry,
 * without bundling: what an entry reaches is a superset of what its bundle runs.
 */
const ROOT = resolve(import.meta.dirname, '../..');

function modulesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return modulesUnder(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const sources = new Map<string, string>();
const source = (path: string) => {
  const known = sources.get(path);
  if (known !== undefined) return known;
  const text = readFileSync(path, 'utf8');
  sources.set(path, text);
  return text;
};
const RUN_TIME_IMPORT =
  /(?:import|export)\s(?!type\s)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g;

/** The modules an entry reaches by run-time relative imports (type-only imports left out). */
function reachedFrom(entry: string): Set<string> {
  const reached = new Set<string>();
  const visit = (path: string) => {
    if (reached.has(path)) return;
    reached.add(path);
    for (const match of source(path).matchAll(RUN_TIME_IMPORT)) {
      visit(resolve(dirname(path), (match[1] ?? match[2] ?? match[3]) as string));
    }
  };
  visit(entry);
  return reached;
}

/** Each capability's codes and the registry codes they map, by the capability's errors.ts. */
const capabilityErrors = modulesUnder(join(ROOT, 'shared'))
  .filter((path) => path.endsWith('/errors.ts') && /defineErrors\(/.test(source(path)))
  .map((path) => {
    const entries = [...source(path).matchAll(/^ {2}([a-z_]+): entry\(([\s\S]*?)\),?$/gm)];
    return {
      path,
      codes: entries.map((match) => match[1] as string),
      registryCodes: entries.flatMap((match) =>
        [...(match[2] as string).matchAll(/'([A-Z]{2}\d{2})'/g)].map((m) => m[1] as string),
      ),
    };
  });
const ownerOfCode = new Map(
  capabilityErrors.flatMap((errors) => errors.codes.map((code) => [code, errors.path])),
);
const ownerOfRegistryCode = new Map(
  capabilityErrors.flatMap((errors) => errors.registryCodes.map((code) => [code, errors.path])),
);

/**
 * The registry codes each simulated operation rejects with (the sandbox registries' methods), as a
 * stand-in for the live registry's: the same codes by the protocol (docs/registry-protocol.md).
 */
const rejectionsByOperation = new Map<string, Set<string>>();
for (const path of modulesUnder(join(ROOT, 'shared')).filter((path) => path.includes('sandbox'))) {
  const methods = source(path).split(/^(?= {2}(?:async )?[a-zA-Z]+\()/m);
  for (const method of methods) {
    const name = /^ {2}(?:async )?([a-zA-Z]+)\(/.exec(method)?.[1];
    if (!name || name === 'constructor') continue;
    const codes = [...method.matchAll(/'([A-Z]{2}\d{2})'/g)].map((match) => match[1] as string);
    const known = rejectionsByOperation.get(name) ?? new Set<string>();
    for (const code of codes) known.add(code);
    rejectionsByOperation.set(name, known);
  }
}

const OPERATION_CALL = new RegExp(`\\.(${[...rejectionsByOperation.keys()].join('|')})\\(`, 'g');

/** The capability errors.ts files a module needs loaded: for the codes it throws and the operations it calls. */
function errorsNeededBy(path: string): Set<string> {
  const text = source(path);
  const needed = new Set<string>();
  for (const match of text.matchAll(/new ApiError\(\s*'([a-z_]+)'/g)) {
    const owner = ownerOfCode.get(match[1] as string);
    if (owner) needed.add(owner);
  }
  if (path.includes('sandbox')) return needed;
  for (const match of text.matchAll(OPERATION_CALL)) {
    for (const code of rejectionsByOperation.get(match[1] as string) ?? []) {
      const owner = ownerOfRegistryCode.get(code);
      if (owner) needed.add(owner);
    }
  }
  return needed;
}

describe('the error codes a function can answer', () => {
  it("reads the capabilities' codes and the simulated operations' rejections", () => {
    expect(ownerOfCode.get('document_list_unavailable')).toMatch(/shared\/companies\/errors\.ts$/);
    expect(ownerOfRegistryCode.get('CD51')).toMatch(/shared\/companies\/errors\.ts$/);
    expect([...(rejectionsByOperation.get('listCompanyDocuments') ?? [])]).toContain('CD51');
  });

  it('are loaded by every function that throws them or calls an operation that rejects with them', () => {
    const missing: string[] = [];
    for (const entry of modulesUnder(join(ROOT, 'functions'))) {
      const reached = reachedFrom(entry);
      for (const module of reached) {
        for (const errors of errorsNeededBy(module)) {
          if (!reached.has(errors)) {
            missing.push(
              `${relative(ROOT, entry)}: ${relative(ROOT, module)} needs ${relative(ROOT, errors)}`,
            );
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
