/**
 * The typed client (clients/typescript/) against the local stack: the example program buys a
 * sandbox extract and reads its charges, typed end to end; a retry of a purchase with the same
 * Idempotency-Key returns the first one; errors come back typed.
 */
import { describe, expect, it } from 'vitest';
import { buyExtractAndReadCharges } from '../../clients/typescript/examples/buy-extract.ts';
import { watchCompanies } from '../../clients/typescript/examples/watch-companies.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { call, createKey, registryPurchases } from '../support/api.ts';
import { typedClient } from '../support/client.ts';

describe('the typed client', () => {
  it('imports monitors, dry run first, and fires a sandbox event (the monitoring example program)', async () => {
    const key = await createKey('test');
    const result = await watchCompanies(typedClient(key.secret));
    expect(result).toStrictEqual({
      wouldCreate: 2,
      problems: [{ row: 3, outcome: 'invalid', code: 'acn_invalid' }],
      importId: expect.stringMatching(/^mimp_[0-9a-f]{24}$/),
      created: 2,
      monitorId: expect.stringMatching(/^mon_[0-9a-f]{24}$/),
      sandboxEvent: expect.stringMatching(/^evt_/),
    });
  });

  it('buys a historical extract of a sandbox company and reads its charges (the example program)', async () => {
    const key = await createKey('test');
    const result = await buyExtractAndReadCharges(typedClient(key.secret), SANDBOX.satisfiedCharges);
    expect(result.extract).toStrictEqual({
      id: expect.stringMatching(/^ext_[0-9a-f]{24}$/),
      type: 'historical',
      billable: false,
      company: 'IRONBARK ENGINEERING PTY LTD',
    });
    expect(result.charges).toStrictEqual([
      { chargeNumber: SANDBOX.charges.migrated, status: 'SATF', chargees: ['SOUTHERN CROSS BANK LIMITED'] },
      {
        chargeNumber: SANDBOX.charges.jointChargee,
        status: 'SATF',
        chargees: ['MARGARET ANNE IRONS', 'PETER JAMES IRONS'],
      },
      { chargeNumber: SANDBOX.charges.deleted, status: 'DELT', chargees: ['SOUTHERN CROSS BANK LIMITED'] },
    ]);
    const ledger = await call<{ data: { resourceId: string; clientReference: string | null }[] }>(
      '/v1/usage',
      {
        key: key.secret,
      },
    );
    expect(ledger.body.data.map((entry) => [entry.resourceId, entry.clientReference])).toStrictEqual([
      [result.extract.id, 'example'],
    ]);
  });

  it('replays a purchase retried with the same Idempotency-Key: the same extract, bought once', async () => {
    const key = await createKey('live');
    const client = typedClient(key.secret);
    const purchase = () =>
      client.POST('/v1/companies/{id}/extracts', {
        params: { path: { id: SANDBOX.satisfiedCharges }, header: { 'Idempotency-Key': `k-${key.keyId}` } },
        body: { type: 'current' },
      });
    const first = await purchase();
    const again = await purchase();
    expect(first.response.status).toBe(201);
    expect(again.response.status).toBe(201);
    expect(again.data?.id).toBe(first.data?.id);
    expect(await registryPurchases(key.accountId)).toBe(1);
  });

  it('gives errors typed as the envelope, with the code the contract lists', async () => {
    const key = await createKey('test');
    const result = await typedClient(key.secret).GET('/v1/companies/{id}', {
      params: { path: { id: SANDBOX.unknownNumber } },
    });
    expect(result.data).toBeUndefined();
    expect(result.response.status).toBe(404);
    expect(result.error?.error).toMatchObject({
      type: 'not_found_error',
      code: 'company_not_found',
      registryCode: 'CE03',
    });
  });

  it('is refused without a valid key, and reads the contract without one', async () => {
    const refused = await typedClient('sk_test_nobody').GET('/v1/usage', {});
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error.code).toBe('unauthorized');
    const contract = await typedClient('sk_test_nobody').GET('/v1/openapi.json', {});
    expect(contract.response.status).toBe(200);
    expect(contract.data?.openapi).toBe('3.1.0');
  });
});
