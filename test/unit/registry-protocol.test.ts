import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulatorOperations } from '../../local/registry-simulator.ts';
import {
  composeRegistry,
  type Registry,
  type RegistryCapability,
  type RegistryParts,
  registryCapabilities,
} from '../../shared/app/registry.ts';
import {
  documentedRegistryProtocol,
  fullRegistryProtocol,
} from '../../shared/composition/registry/capability-protocol.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import { HttpRegistry } from '../../shared/composition/registry/http-registry.ts';
import {
  billableOperations,
  clientKeyOf,
  keyedOperations,
  operationSpec,
  type RegistryOperation,
  registryOperations,
  registryProtocol,
} from '../../shared/composition/registry/protocol.ts';
import {
  protocolOperationsPart,
  withGeneratedProtocol,
} from '../../shared/composition/registry/protocol-docs.ts';
import { sandboxDataset } from '../../shared/composition/registry/sandbox.ts';

const capabilities = Object.keys(registryCapabilities) as RegistryCapability[];
const portMethods = capabilities.flatMap((capability) =>
  registryCapabilities[capability].map((method) => ({ capability, method: String(method) })),
);
const caller = { accountId: 'acct_table', requestId: 'req_table', clientReference: null };

describe('the registry protocol table', () => {
  it('has exactly one operation for every method of every capability, in that capability', () => {
    for (const { capability, method } of portMethods) {
      const rows = registryOperations.filter((name) => registryProtocol[name].method === method);
      expect(rows, `operations serving ${method}`).toHaveLength(1);
      expect(registryProtocol[rows[0] as RegistryOperation].capability, method).toBe(capability);
    }
    expect(registryOperations).toHaveLength(portMethods.length);
    expect(portMethods).toHaveLength(26);
  });

  it('names the operations the registry bills and those that carry our client key', () => {
    expect([...billableOperations].sort()).toEqual([
      'company.extract',
      'images.request',
      'person.extract',
      'register.extract',
      'search.offline',
      'weekly.summary',
    ]);
    expect([...keyedOperations].sort()).toEqual([
      'company.extract',
      'images.request',
      'person.extract',
      'post.request',
      'register.extract',
      'search.offline',
      'weekly.summary',
    ]);
    expect(registryOperations.filter((name) => registryProtocol[name].timeout === 'long').sort()).toEqual([
      'company.extract',
      'images.get',
      'images.request',
      'person.extract',
      'register.extract',
      'search.offline',
      'weekly.summary',
    ]);
  });

  it('finds the client key where each keyed operation carries it, and none elsewhere', () => {
    expect(clientKeyOf('company.extract', { number: '1', type: 'current', clientKey: 'k1' })).toBe('k1');
    expect(clientKeyOf('post.request', { delivery: { clientKey: 'ord_1#post' } })).toBe('ord_1#post');
    expect(clientKeyOf('post.request', { delivery: null })).toBeNull();
    expect(clientKeyOf('company.extract', { clientKey: 7 })).toBeNull();
    expect(clientKeyOf('purchase.outcome', { clientKey: 'k1' })).toBeNull();
  });
});

describe('the simulator entries', () => {
  /** A registry that records which of its methods is called, and with what. */
  function recordingRegistry() {
    const calls: { method: string; args: unknown[] }[] = [];
    const registry = new Proxy(
      {},
      {
        get:
          (_target, method) =>
          async (...args: unknown[]) => {
            calls.push({ method: String(method), args });
            return method === 'getImages' ? new Uint8Array([37, 80, 68, 70]) : { answered: String(method) };
          },
      },
    ) as Registry;
    return { registry, calls };
  }

  /** A body with a value of the right JSON type for every argument of the operation. */
  const bodyFor = (name: RegistryOperation): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(operationSpec(name).args).map(([arg, kind]) => [
        arg,
        { string: `${arg}-value`, object: { of: arg }, strings: [`${arg}-1`], objects: [{ of: arg }] }[kind],
      ]),
    );

  it('has one entry per operation, each calling the port method of its row once, with the caller', async () => {
    // The registry port's operations, and any a capability declares on its own (its sandbox answers them).
    expect(Object.keys(simulatorOperations).sort()).toEqual([...fullRegistryProtocol.operations].sort());
    expect(registryOperations.every((name) => fullRegistryProtocol.isOperation(name))).toBe(true);
    for (const name of registryOperations) {
      const { registry, calls } = recordingRegistry();
      await simulatorOperations[name]?.invoke(registry, bodyFor(name), caller);
      expect(
        calls.map((call) => call.method),
        name,
      ).toEqual([registryProtocol[name].method]);
      expect(calls[0]?.args, name).toContain(caller);
    }
  });

  it('passes the wire arguments on in the port method order, and sends images as base64', async () => {
    const { registry, calls } = recordingRegistry();
    await simulatorOperations['company.extract'].invoke(registry, bodyFor('company.extract'), caller);
    expect(calls[0]?.args).toEqual(['number-value', 'type-value', caller, 'clientKey-value']);
    const images = await simulatorOperations['images.get'].invoke(registry, bodyFor('images.get'), caller);
    expect(images).toEqual({ pdf: 'JVBERg==' });
  });
});

describe('the adapters', () => {
  it('compose a part for every capability: every port method is a function of the registry', () => {
    const registries: Record<string, Registry> = {
      DatasetRegistry: new DatasetRegistry(sandboxDataset()),
      HttpRegistry: new HttpRegistry({ baseUrl: 'http://127.0.0.1:9', credential: async () => 'x' }),
    };
    for (const [adapter, registry] of Object.entries(registries)) {
      const missing = portMethods.filter(
        ({ method }) => typeof (registry as unknown as Record<string, unknown>)[method] !== 'function',
      );
      expect(missing, adapter).toEqual([]);
      expect(registry.constructor.name).toBe(adapter);
    }
  });

  it('refuses to compose a part that lacks one of its capability methods', () => {
    const dataset = new DatasetRegistry(sandboxDataset());
    const parts = {
      companies: dataset,
      people: dataset,
      orders: dataset,
      purchases: {},
    } as unknown as RegistryParts;
    expect(() => composeRegistry(parts)).toThrow(
      'composeRegistry: the purchases part has no method findPurchase',
    );
  });
});

describe('docs/registry-protocol.md', () => {
  const page = readFileSync(new URL('../../docs/registry-protocol.md', import.meta.url), 'utf8');

  it('has the operations table exactly as npm run docs:registry writes it from the protocol table', () => {
    // On failure: run `npm run docs:registry` and commit the page with the table change.
    expect(
      withGeneratedProtocol(page),
      'docs/registry-protocol.md is out of date: run npm run docs:registry',
    ).toBe(page);
    expect(page.split(protocolOperationsPart.start)).toHaveLength(2);
    expect(page.split(protocolOperationsPart.end)).toHaveLength(2);
  });

  it('documents every operation, with its capability, port method, billing, client key and timeout', () => {
    const rows = protocolOperationsPart
      .render()
      .split('\n')
      .slice(2)
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map((row) => row[1])).toEqual(
      documentedRegistryProtocol.operations.map((name) => `\`${name}\``),
    );
    expect(registryOperations.every((name) => documentedRegistryProtocol.isOperation(name))).toBe(true);
    expect(rows.find((row) => row[1] === '`post.request`')).toEqual([
      '',
      '`post.request`',
      'orders',
      '`delivery` (object, below, with its `clientKey`)',
      '`requestPostalDelivery`',
      '`{dispatchId}`',
      'no',
      'yes',
      '5 s',
      '',
    ]);
    expect(rows.find((row) => row[1] === '`company.extract`')?.slice(6, 9)).toEqual([
      'yes, once per key',
      'yes',
      '25 s',
    ]);
  });
});
