import { search as jmespath } from '@aws-lambda-powertools/jmespath';
import { describe, expect, it } from 'vitest';
import { search } from '../../shared/adapters/aws/jmespath-fields.ts';

/** The Lambda bundles' stand-in for Powertools' JMESPath (lib/bundling.ts) against the real one. */
describe('the JMESPath field-path stand-in', () => {
  const payload = {
    key: 'acct#test#PurchaseCompanyExtract#/v1/companies/1/extracts#k-1',
    request: { path: { id: '000000019' }, body: { type: 'current' }, clientReference: null },
    nothing: null,
    list: [1, 2],
  };
  const cases: [string, unknown][] = [
    ['key', payload],
    ['request', payload],
    ['request.body', payload],
    ['request.body.type', payload],
    ['request.clientReference', payload],
    ['missing', payload],
    ['nothing.deeper', payload],
    ['list.first', payload],
    ['key', null],
    ['key', 'text'],
    ['key', [payload]],
  ];

  it.each(cases)('answers %s as JMESPath does', (expression, data) => {
    expect(search(expression, data)).toEqual(jmespath(expression, data as never));
  });

  it('answers the very request object, not a copy', () => {
    expect(search('request', payload)).toBe(payload.request);
  });

  it.each(['key[0]', 'request.*', 'length(key)', 'a || b', '"key"', ''])(
    'refuses %j, which is not a field path',
    (expression) => {
      expect(() => search(expression, payload)).toThrow('is not a field path');
    },
  );
});
