import { catalogueEntry, DEFAULT_RETRY_AFTER_SECONDS, type ErrorCode, type ErrorType } from './catalogue.ts';

export interface ApiErrorOptions {
  message?: string;
  param?: string | null;
  registryCode?: string | null;
  details?: Record<string, unknown>;
  /** Only a status the catalogue lists for this code (validation_error may be 400 for cursors). */
  status?: number;
  /** Extra response headers, for example Retry-After. */
  headers?: Record<string, string>;
}

/** A failure the client should see. Thrown anywhere; turned into the envelope by the pipeline. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly status: number;
  readonly param: string | null;
  readonly registryCode: string | null;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const entry = catalogueEntry(code);
    super(options.message ?? entry.message);
    this.name = 'ApiError';
    this.code = code;
    this.type = entry.type;
    const alternates: readonly number[] = ('alternateStatuses' in entry && entry.alternateStatuses) || [];
    if (
      options.status !== undefined &&
      options.status !== entry.status &&
      !alternates.includes(options.status)
    ) {
      throw new Error(`status ${options.status} is not allowed for ${code}`);
    }
    this.status = options.status ?? entry.status;
    this.param = options.param ?? null;
    this.registryCode = options.registryCode ?? null;
    this.details = options.details;
    // Every retryable answer says when to retry (spec 7.2): the caller's wait, else the status's default.
    const retryAfter = DEFAULT_RETRY_AFTER_SECONDS[this.status];
    const given = options.headers ?? {};
    this.headers =
      retryAfter === undefined || Object.keys(given).some((name) => name.toLowerCase() === 'retry-after')
        ? given
        : { ...given, 'Retry-After': String(retryAfter) };
  }
}

export interface ErrorEnvelope {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    param: string | null;
    registryCode: string | null;
    requestId: string;
    details?: Record<string, unknown>;
    docUrl: string;
  };
}

export function errorEnvelope(error: ApiError, requestId: string, docsUrl: string): ErrorEnvelope {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      param: error.param,
      registryCode: error.registryCode,
      requestId,
      ...(error.details ? { details: error.details } : {}),
      docUrl: `${docsUrl.replace(/\/+$/, '')}/errors#${error.code}`,
    },
  };
}
