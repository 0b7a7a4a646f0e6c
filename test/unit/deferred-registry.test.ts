import { describe, expect, it } from 'vitest';
import { deferredRegistry, type Registry, registryCapabilities } from '../../shared/app/registry.ts';
import { RegistryRejection } from '../../shared/kernel/registry-port.ts';

const caller = { accountId: 'acct_1', requestId: 'req_1' };

/** A registry whose every method answers its own name and arguments; `getCompany` rejects CE03. */
const echoRegistry = (): Registry =>
  Object.fromEntries(
    Object.values(registryCapabilities)
      .flat()
      .map((method) => [
        method,
        async (...args: unknown[]) => {
          if (method === 'getCompany') throw new RegistryRejection('CE03', 'no such company');
          return { method, args };
        },
      ]),
  ) as unknown as Registry;

describe('a registry loaded on its first call (shared/app/registry.ts)', () => {
  it('has every method of the port, loads once for calls in flight together, and forwards each call', async () => {
    let loads = 0;
    const registry = deferredRegistry(async () => {
      loads++;
      return echoRegistry();
    });
    expect(loads).toBe(0);
    const methods = Object.values(registryCapabilities).flat();
    expect(Object.keys(registry).sort()).toEqual([...methods].sort());
    const [byAbn, search] = await Promise.all([
      registry.getCompanyByAbn('51824753556', caller),
      registry.searchCompanies({ name: 'ACME', scope: 'current' }, caller),
    ]);
    expect(byAbn).toEqual({ method: 'getCompanyByAbn', args: ['51824753556', caller] });
    expect(search).toEqual({ method: 'searchCompanies', args: [{ name: 'ACME', scope: 'current' }, caller] });
    await expect(registry.getCompany('990000998', caller)).rejects.toMatchObject({ registryCode: 'CE03' });
    expect(loads).toBe(1);
  });

  it('loads again on the next call after a load failed', async () => {
    let loads = 0;
    const registry = deferredRegistry(async () => {
      loads++;
      if (loads === 1) throw new Error('cannot load the sandbox');
      return echoRegistry();
    });
    await expect(registry.getCompanyByAbn('51824753556', caller)).rejects.toThrow('cannot load the sandbox');
    expect(await registry.getCompanyByAbn('51824753556', caller)).toEqual({
      method: 'getCompanyByAbn',
      args: ['51824753556', caller],
    });
    expect(loads).toBe(2);
  });
});

describe('RegistryRejection across copies of its module', () => {
  it('is an instance by its brand, as a rejection from the sandbox file is (another copy of the class)', () => {
    const copied = Object.assign(new Error('CE03'), {
      [Symbol.for('company-register.RegistryRejection')]: true,
    });
    expect(copied instanceof RegistryRejection).toBe(true);
    expect(new RegistryRejection('CE03', 'no such company') instanceof RegistryRejection).toBe(true);
    expect(new Error('CE03') instanceof RegistryRejection).toBe(false);
    expect((null as unknown as object) instanceof RegistryRejection).toBe(false);
  });
});
