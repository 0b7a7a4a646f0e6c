/**
 * A route's ports are declared once, in its entry: its grants, its handler's port type and its
 * AWS composition come from that list. These tests hold the parts that types alone cannot: each
 * function module composes exactly its route's ports, the local stack gives a handler nothing
 * more, and the grants follow the ports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredPortsOnly } from '../../local/route-ports.ts';
import { grantsOf } from '../../shared/app/port-grants.ts';
import type { AppPorts } from '../../shared/app/ports.ts';
import { routeList, routes } from '../../shared/app/routes.ts';
import { callsRegistry } from '../../shared/kernel/http/route.ts';

const FUNCTIONS = join(import.meta.dirname, '../../functions');

/** `awsRoutePorts(<route>, { a, b })` in a handler module: the route expression and the factories named. */
function compositionOf(source: string) {
  const calls = [...source.matchAll(/awsRoutePorts\(\s*([\w.]+)\s*,\s*\{([^}]*)\}\s*\)/g)];
  return calls.map((call) => ({
    route: call[1] as string,
    factories: (call[2] as string)
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  }));
}

describe('each function module composes exactly its route’s ports', () => {
  it.each(routeList.map((route) => [route.name, route] as const))('%s', (_, route) => {
    const source = readFileSync(join(FUNCTIONS, `${route.handler}.ts`), 'utf8');
    const compositions = compositionOf(source);
    expect(compositions).toHaveLength(1);
    const [composition] = compositions as [{ route: string; factories: string[] }];
    // The route the module composes for is the route that names the module.
    const key = composition.route.split('.').pop() as keyof typeof routes;
    expect(routes[key]?.name).toBe(route.name);
    expect([...composition.factories].sort()).toEqual([...route.ports].sort());
  });
});

describe('the local stack gives a handler only its route’s ports', () => {
  const everyPort = new Proxy({} as Record<string, unknown>, {
    get: (_, name) => ({ port: name }),
    has: () => true,
  });
  const all = Object.fromEntries(
    [
      'config',
      'clock',
      'apiKeys',
      'limiter',
      'cursors',
      'requestLog',
      'heldExtracts',
      'orders',
      'registryFor',
    ].map((name) => [name, everyPort[name]]),
  ) as unknown as AppPorts;
  const given = declaredPortsOnly({ name: 'GetThing', ports: ['heldExtracts'] }, all);

  it('throws, naming the route and the port, when the handler reaches an undeclared port', () => {
    expect(() => given.orders).toThrow(new Error('route GetThing reached port orders it does not declare'));
    expect(() => given.registryFor).toThrow(
      new Error('route GetThing reached port registryFor it does not declare'),
    );
  });

  it('gives the declared ports and the pipeline’s own, and nothing else to a spread or an `in`', () => {
    expect(given.heldExtracts).toEqual({ port: 'heldExtracts' });
    expect(given.clock).toEqual({ port: 'clock' });
    expect(Object.keys({ ...given }).sort()).toEqual(
      ['apiKeys', 'clock', 'config', 'cursors', 'heldExtracts', 'limiter', 'requestLog'].sort(),
    );
    expect('orders' in given).toBe(false);
    expect('heldExtracts' in given).toBe(true);
  });

  it('refuses a route that declares a name no port has', () => {
    expect(() => declaredPortsOnly({ name: 'GetThing', ports: ['nothing'] }, all)).toThrow(
      'route GetThing declares nothing, which no port is',
    );
  });
});

describe('grants derived from the ports', () => {
  it.each(routeList.map((route) => [route.name, route] as const))(
    '%s: calls the registry exactly when it declares its port, idempotent exactly with the idempotency port',
    (_, route) => {
      expect(route.usesRegistry).toBe(callsRegistry(route));
      expect(route.ports.includes('idempotency')).toBe(route.idempotent === true);
    },
  );

  it('takes each table at the widest level a port needs, capped at read for a read-only route', () => {
    const route = (ports: readonly string[], readOnly?: boolean) => grantsOf({ name: 'T', ports, readOnly });
    expect(route(['heldExtracts']).tables).toEqual({ main: 'read' });
    expect(route(['heldExtracts', 'extractPurchases', 'idempotency']).tables).toEqual({
      main: 'readWrite',
      idempotency: 'readWriteDelete',
    });
    expect(route(['purchaseRecords']).tables).toEqual({ main: 'readWriteDelete' });
    expect(route(['orders', 'blobs'], true)).toEqual({
      tables: { main: 'read' },
      items: {},
      uses: ['blobs'],
      usesRegistry: false,
    });
    expect(route(['codeTableSet']).tables).toEqual({ main: 'getItem' });
    expect(route(['purchaseRecords'], true).tables).toEqual({ main: 'read' });
    expect(route(['codeTableSet', 'heldExtracts']).tables).toEqual({ main: 'read' });
    expect(route(['registryFor', 'queue'])).toEqual({
      tables: {},
      items: {},
      uses: ['queue'],
      usesRegistry: true,
    });
    expect(route([])).toEqual({ tables: {}, items: {}, uses: [], usesRegistry: false });
  });

  it('conditions the writes of a table to the items its writing ports name, all of them, or to none', () => {
    const route = (ports: readonly string[], readOnly?: boolean) => grantsOf({ name: 'T', ports, readOnly });
    expect(route(['consoleSessions']).items).toEqual({ keys: ['LINK#', 'SESSION#', 'AUDIT#', 'MEMBER#'] });
    expect(route(['keyAdministration']).items).toEqual({ keys: ['KEY#', 'AUDIT#'] });
    expect(route(['consoleSessions', 'keyAdministration']).items).toEqual({
      keys: ['LINK#', 'SESSION#', 'AUDIT#', 'MEMBER#', 'KEY#'],
    });
    // A read-only route writes nothing, so nothing to condition; a port that names no items writes anywhere.
    expect(route(['keyAdministration'], true).items).toEqual({});
    expect(route(['orders']).items).toEqual({});
  });

  it('deletes only from the tables a route names in `deletes`, which a port of it must write', () => {
    const route = (ports: readonly string[], deletes?: readonly ('main' | 'keys')[], readOnly?: boolean) =>
      grantsOf({ name: 'T', ports, deletes, readOnly });
    expect(route(['webhookEndpoints']).tables).toEqual({ main: 'readWrite' });
    expect(route(['webhookEndpoints'], ['main']).tables).toEqual({ main: 'readWriteDelete' });
    expect(route(['consoleSessions'], ['keys']).tables).toEqual({ keys: 'readWriteDelete' });
    expect(() => route(['heldExtracts'], ['main'])).toThrow(
      /deletes from main, which none of its ports writes/,
    );
    expect(() => route(['webhookEndpoints'], ['keys'])).toThrow(/deletes from keys/);
    expect(() => route(['webhookEndpoints'], ['main'], true)).toThrow(/deletes from main/);
  });

  it('keeps the reference routes to single-item reads', () => {
    for (const name of ['ListCodeTables', 'GetCodeTable', 'ListForms']) {
      expect(routeList.find((route) => route.name === name)?.tables).toEqual({ main: 'getItem' });
    }
  });

  it('refuses a port only workers use, and a name that is no port', () => {
    expect(() => grantsOf({ name: 'T', ports: ['starter'] })).toThrow(
      'route T declares starter, which only workers use',
    );
    expect(() => grantsOf({ name: 'T', ports: ['nothing'] })).toThrow(
      'route T declares nothing, which is no port',
    );
  });
});
