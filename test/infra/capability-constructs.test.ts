import { describe, expect, it } from 'vitest';
import { bindingsOf, PLATFORM_ROUTE_BINDINGS } from '../../lib/api-area-stack.ts';
import type { RouteBinding } from '../../lib/capability-construct.ts';
import { capabilityConstructs, routeBindings, routeBindingTable } from '../../lib/capability-constructs.ts';
import { buildOrder } from '../../shared/kernel/capability-order.ts';
import type { GrantedRoute } from '../../shared/kernel/http/route.ts';

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

/** How route functions are bound to what capabilities make (lib/capability-constructs.ts, lib/api-area-stack.ts). */
describe("the capabilities' route bindings", () => {
  const route = (uses: readonly string[], ports: readonly string[]) =>
    ({ name: 'Example', uses, ports }) as unknown as GrantedRoute;

  it('are declared by the capabilities that make what each `uses` value and port needs', () => {
    expect([...routeBindings.uses.keys()]).toEqual([
      'queue',
      'blobs',
      'webhookQueue',
      'sealer',
      'monitoringQueue',
    ]);
    expect([...routeBindings.ports.keys()]).toEqual(['passkeys', 'passkeyChallenges']);
    expect([...PLATFORM_ROUTE_BINDINGS.keys()]).toEqual(['mailer']);
  });

  it("bind a route's uses in the capabilities' order, then the platform's, then its ports', each binding once", () => {
    const bound = bindingsOf(
      route(['mailer', 'sealer', 'queue'], ['passkeyChallenges', 'passkeys']),
      routeBindings,
    );
    expect(bound).toEqual([
      routeBindings.uses.get('queue'),
      routeBindings.uses.get('sealer'),
      PLATFORM_ROUTE_BINDINGS.get('mailer'),
      routeBindings.ports.get('passkeys'),
    ]);
    expect(routeBindings.ports.get('passkeys')).toBe(routeBindings.ports.get('passkeyChallenges'));
    expect(bindingsOf(route([], ['companies']), routeBindings)).toEqual([]);
  });

  it('refuse a `uses` value no capability binds, and one two capabilities bind', () => {
    expect(() => bindingsOf(route(['queue', 'fax'], []), routeBindings)).toThrow(
      'Example: no capability binds uses fax',
    );
    const bind: RouteBinding = () => undefined;
    expect(() =>
      routeBindingTable([
        { capability: 'a', routeBindings: { uses: { queue: bind } } },
        { capability: 'b', routeBindings: { uses: { queue: bind } } },
      ]),
    ).toThrow('b: uses queue is bound by another capability already');
  });
});
