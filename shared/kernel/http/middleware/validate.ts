import { ApiError } from '../../errors/api-error.ts';
import { checkIdempotencyKey } from '../idempotency-key.ts';
import { parseRequest } from '../request.ts';
import type { RouteDefinition } from '../route.ts';
import type { ApiMiddleware } from './state.ts';

const MAX_CLIENT_REFERENCE = 30;

function checkClientReference(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (value.length > MAX_CLIENT_REFERENCE) {
    throw new ApiError('validation_error', {
      param: 'X-Client-Reference',
      message: `X-Client-Reference must be at most ${MAX_CLIENT_REFERENCE} characters (got ${value.length}).`,
    });
  }
  return value;
}

/** Path, query and body checked against the route's zod schemas; a purchase's headers too. */
export const validate = (route: RouteDefinition): ApiMiddleware => ({
  before: (request) => {
    const state = request.context.api;
    state.input = parseRequest(route, state.raw);
    if (route.idempotent) {
      state.purchase = {
        clientReference: checkClientReference(state.raw.headers['x-client-reference']),
        idempotencyKey: checkIdempotencyKey(state.raw.headers['idempotency-key']),
      };
    }
  },
});
