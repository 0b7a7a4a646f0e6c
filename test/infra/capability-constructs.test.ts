import { describe, expect, it } from 'vitest';
import { capabilityConstructs } from '../../lib/capability-constructs.ts';
import { buildOrder } from '../../shared/kernel/capability-order.ts';

/** The order the API stack builds the capabilities' own constructs in (lib/capability-constructs.ts). */
describe("the capabilities' constructs", () => {
  it("are loaded from the capability modules and built in the list's order, each after those it names", () => {
    // Monitoring comes first in the list but waits for the orders' event bus: the order (and so
    // every construct path) is the one the stack had when it built them by hand.
    expect(capabilityConstructs.map((constructs) => constructs.capability)).toEqual([
      'orders',
      'webhooks',
      'reference',
      'monitoring',
    ]);
  });

  it('keeps the list order of modules that wait for nothing, and defers one until what it names is built', () => {
    const order = buildOrder([
      { capability: 'a', after: ['c'] },
      { capability: 'b' },
      { capability: 'c', after: ['b'] },
      { capability: 'd' },
    ]);
    expect(order.map((module) => module.capability)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('refuses a cycle and a name no module has', () => {
    expect(() =>
      buildOrder([
        { capability: 'a', after: ['b'] },
        { capability: 'b', after: ['a'] },
      ]),
    ).toThrow(
      'capability modules cannot be ordered (a cycle, or none by that name): a (after b); b (after a)',
    );
    expect(() => buildOrder([{ capability: 'a', after: ['missing'] }])).toThrow('a (after missing)');
  });
});
