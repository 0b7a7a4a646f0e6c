/**
 * What the local stack gives a route's handler: the pipeline's ports and those the route declares,
 * nothing else. A handler that reaches for another port fails here, on every local request and in
 * every HTTP test, as its function would on Lambda (where only the declared ports are built and
 * granted): `route <Name> reached port <port> it does not declare`.
 */
import type { AppPorts } from '../shared/app/ports.ts';
import { platformPortNames } from '../shared/kernel/ports/platform.ts';

export function declaredPortsOnly(
  route: { readonly name: string; readonly ports: readonly string[] },
  ports: AppPorts,
): AppPorts {
  const declared = new Set<string>([...platformPortNames, ...route.ports]);
  const given: Record<string, unknown> = {};
  for (const name of declared) {
    if (!Object.hasOwn(ports, name))
      throw new Error(`route ${route.name} declares ${name}, which no port is`);
    given[name] = ports[name as keyof AppPorts];
  }
  return new Proxy(given, {
    get(target, property, receiver) {
      if (typeof property === 'string' && !declared.has(property) && Object.hasOwn(ports, property)) {
        throw new Error(`route ${route.name} reached port ${property} it does not declare`);
      }
      return Reflect.get(target, property, receiver);
    },
  }) as unknown as AppPorts;
}
