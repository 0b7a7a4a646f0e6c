import type { Environment } from '../kernel/api-keys.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import './errors.ts';

/** `X-Sandbox-Simulate: order_failed` makes a test key's order fail; live keys cannot simulate. */
export function simulatedFailure(headers: Readonly<Record<string, string>>, environment: Environment) {
  const value = headers['x-sandbox-simulate'];
  if (value === undefined || value === '') return false;
  if (value !== 'order_failed') {
    throw new ApiError('sandbox_simulation_invalid', {
      param: 'X-Sandbox-Simulate',
      message: `X-Sandbox-Simulate takes one value, order_failed (got '${value}').`,
    });
  }
  if (environment !== 'test') {
    throw new ApiError('sandbox_simulation_invalid', {
      param: 'X-Sandbox-Simulate',
      message: 'X-Sandbox-Simulate works only with test keys: live orders are never simulated.',
    });
  }
  return true;
}
