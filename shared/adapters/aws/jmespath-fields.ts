/**
 * Stands in for `@aws-lambda-powertools/jmespath` (and its `/functions`) in Lambda bundles (see
 * lib/bundling.ts). Powertools idempotency finds the key and the request to compare with a JMESPath
 * expression; the service's are plain field names (`key`, `request`: adapters/dynamodb/idempotency.ts).
 * The full JMESPath lexer, parser and interpreter are about 23 KB of every idempotent function's
 * bundle, and its custom functions import `node:zlib` at init. This answers field paths (`a`,
 * `a.b`) exactly as JMESPath does and fails loudly on any other expression.
 */

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  Object.prototype.toString.call(value) === '[object Object]';

export const search = (expression: string, data: unknown): unknown => {
  if (!FIELD_PATH.test(expression)) {
    throw new Error(
      `JMESPath expression "${expression}" is not a field path; only field paths are bundled (see lib/bundling.ts)`,
    );
  }
  let value = data;
  for (const field of expression.split('.')) {
    value = isRecord(value) && field in value ? value[field] : null;
  }
  return value;
};

/** What idempotency's configuration builds by default; field paths call no function. */
export class PowertoolsFunctions {}
