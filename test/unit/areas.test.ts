import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ROUTE_AREAS } from '../../lib/routes.ts';
import { OPENAPI_FILE } from '../../scripts/openapi.ts';
import { apiAreas, gatherAreas } from '../../shared/app/areas.ts';
import { capabilityList } from '../../shared/app/capabilities.ts';
import { TAGS } from '../../shared/app/openapi/document.ts';
import { routeList } from '../../shared/app/routes.ts';
import type { AreaJoin, CapabilityArea } from '../../shared/kernel/capability.ts';
import { defineRoute, type RouteDefinition } from '../../shared/kernel/http/route.ts';
import { noPath, noQuery } from '../../shared/kernel/http/schemas.ts';

const route = (name: string): RouteDefinition =>
  defineRoute({
    name,
    method: 'GET',
    path: `/v1/${name}`,
    handler: `test/${name}`,
    summary: name,
    request: { path: noPath, query: noQuery },
    response: z.object({}),
    status: 200,
    billable: false,
    product: null,
    ports: [],
    errors: [],
  });

const area = (name: string, order: number, routes: string[]): CapabilityArea => ({
  name,
  tag: name,
  description: `${name} routes`,
  order,
  routes: [Object.fromEntries(routes.map((r) => [r, route(r)]))],
});

const namesOf = (routes: readonly Readonly<Record<string, RouteDefinition>>[]) =>
  routes.flatMap((group) => Object.values(group).map((r) => r.name));

describe('gatherAreas', () => {
  it('orders the areas by `order`, ties in the order declared, and puts joined routes after the area’s own', () => {
    const gathered = gatherAreas([
      { joins: 'Base', routes: [{ First: route('First') }] },
      area('Late', 30, ['L']),
      area('Base', 10, ['B']),
      { joins: 'Base', routes: [{ Second: route('Second') }], examples: { Second: { summary: 'two' } } },
      area('Tie', 30, ['T']),
    ] as readonly (CapabilityArea | AreaJoin)[]);
    expect(gathered.map((a) => [a.name, namesOf(a.routes)])).toEqual([
      ['Base', ['B', 'First', 'Second']],
      ['Late', ['L']],
      ['Tie', ['T']],
    ]);
    expect(gathered[0]?.examples).toEqual({ Second: { summary: 'two' } });
    expect(gathered[1]).not.toHaveProperty('examples');
  });

  it('refuses routes that join an area no capability declares', () => {
    expect(() =>
      gatherAreas([area('Base', 10, ['B']), { joins: 'Nowhere', routes: [{ X: route('X') }] }]),
    ).toThrow('routes join the area Nowhere, which no capability declares');
  });
});

describe('the areas the capability modules declare', () => {
  const contract = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
    tags: { name: string; description: string }[];
    paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
  };
  const declared = capabilityList.flatMap((capability) => capability.areas ?? []);
  const own = declared.filter((part): part is CapabilityArea => 'name' in part);
  const joins = declared.filter((part): part is AreaJoin => 'joins' in part);

  it('are every area, in their order, and every route of the route table is in one', () => {
    expect(apiAreas.map((a) => a.name)).toEqual(
      [...own].sort((a, b) => a.order - b.order).map((a) => a.name),
    );
    // This project's own areas in the contract's order (a capability scaffolded beside them adds its own).
    const ownAreas = [
      'Reference',
      'Companies',
      'People',
      'Extracts',
      'Registers',
      'Orders',
      'Records',
      'Webhooks',
      'Monitoring',
      'Console',
      'ConsoleTeam',
      'Mcp',
      'Docs',
    ];
    expect(apiAreas.map((a) => a.name).filter((name) => ownAreas.includes(name))).toEqual(ownAreas);
    expect(apiAreas.flatMap((a) => namesOf(a.routes)).sort()).toEqual(routeList.map((r) => r.name).sort());
  });

  it('reach their stack and the contract: each area its own stack and tag, with its routes and those that join it', () => {
    for (const declaredArea of own) {
      const stack = ROUTE_AREAS.find((a) => a.name === declaredArea.name);
      const routes = [
        ...namesOf(declaredArea.routes),
        ...joins.filter((join) => join.joins === declaredArea.name).flatMap((join) => namesOf(join.routes)),
      ];
      // In that order, after the app's own that join it (the routes over every extract kind).
      const fromCapabilities = new Set(declared.flatMap((part) => namesOf(part.routes)));
      expect(
        stack?.routes.map((r) => r.name).filter((name) => fromCapabilities.has(name)),
        declaredArea.name,
      ).toEqual(routes);
      const tag = TAGS.find((t) => t.description === declaredArea.description);
      expect(tag?.name, declaredArea.name).toBe(declaredArea.tag);
      expect(tag?.routes.map((r) => r.name)).toEqual(stack?.routes.map((r) => r.name));
      // What the service serves: its published operations under the area's tag.
      for (const published of routeList.filter((r) => routes.includes(r.name) && !r.internal)) {
        const operation = contract.paths[published.path]?.[published.method.toLowerCase()];
        expect(operation?.tags, published.name).toEqual([declaredArea.tag]);
      }
    }
  });
});
