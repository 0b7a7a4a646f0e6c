import { describe, expect, it } from 'vitest';
import type { ExtractKindParts, ExtractKindRole } from '../../shared/app/extract-kind-parts.ts';
import { extractKindParts } from '../../shared/app/extract-kinds.ts';
import { presentByKind } from '../../shared/app/present-extract.ts';
import { settleByKind } from '../../shared/app/reconcile-purchases.ts';
import { extractKinds } from '../../shared/extracts/store-port.ts';

describe('the parts of every kind of extract', () => {
  it('gives every kind a store, a present and a reconcile part', () => {
    expect(Object.keys(extractKindParts).sort()).toEqual([...extractKinds].sort());
    for (const kind of extractKinds) {
      const parts = extractKindParts[kind];
      expect(typeof parts.store, `${kind}.store`).toBe('function');
      expect(typeof parts.present, `${kind}.present`).toBe('function');
      expect(typeof parts.reconcile, `${kind}.reconcile`).toBe('function');
    }
  });

  it('holds each role in its own record, the one a function imports', () => {
    for (const kind of extractKinds) {
      expect(Object.keys(presentByKind[kind]), kind).toEqual(['present']);
      expect(Object.keys(settleByKind[kind]).sort(), kind).toEqual(['reconcile', 'store']);
    }
  });

  // Checked by tsc (npm run typecheck), not at run time: each line below must fail to compile.
  it('does not compile a kind without one of its parts', () => {
    const { register: _register, ...withoutRegister } = extractKindParts;
    // @ts-expect-error a kind (register) is missing from the whole record
    const missingKind: ExtractKindParts = withoutRegister;

    const { present: _present, ...registerWithoutPresent } = extractKindParts.register;
    // @ts-expect-error a kind (register) is missing its present part
    const missingPart: ExtractKindParts = { ...extractKindParts, register: registerWithoutPresent };

    const { weeklySummary: _weekly, ...presentWithoutWeekly } = presentByKind;
    // @ts-expect-error the present role is missing a kind (weeklySummary)
    const missingFromRole: ExtractKindRole<'present'> = presentWithoutWeekly;

    expect([missingKind, missingPart, missingFromRole].every(Boolean)).toBe(true);
  });
});
