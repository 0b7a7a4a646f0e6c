import * as z from 'zod/mini';
import { ApiError } from '../errors/api-error.ts';
import type { ErrorCode } from '../errors/catalogue.ts';
import type { RouteDefinition } from './route.ts';
import { fieldCodes } from './schemas.ts';

/** The parts of an HTTP request the pipeline reads, with header names in lower case. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** A repeated parameter, or one whose name ends in `[]`, is an array. */
  query: Record<string, string | string[]>;
  body: string | null;
  pathParameters?: Record<string, string | undefined>;
}

export type Location = 'path' | 'query' | 'body';

/** Arrays and objects nest at most this deep in a body, the body itself being level 1. */
export const MAX_JSON_DEPTH = 32;

/**
 * The largest body the service takes, in bytes: 1 MiB, in Lambda and in the local stack alike.
 * Deployed, a far larger body never reaches a function: Lambda's event is at most 6 MB (the body
 * base64-encoded in it) and API Gateway's payload at most 10 MB; API Gateway's answer to those
 * goes through a gateway response (lib/gateway-responses.ts), so it is in the envelope too.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** 400 `request_too_large` for a body over `MAX_BODY_BYTES`. */
export const bodyTooLarge = () =>
  new ApiError('request_too_large', {
    message: `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB), the most this API takes.`,
  });

/** Refuses a body over `MAX_BODY_BYTES` (UTF-8 bytes), before anything else looks at the request. */
export function checkBodySize(body: string | null): void {
  if (body !== null && Buffer.byteLength(body, 'utf8') > MAX_BODY_BYTES) throw bodyTooLarge();
}

/** `['personIds', 3, 'id']` → `personIds[3].id`; `['numbers[]', 2]` → `numbers[2]`. */
export function paramName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, part) => {
    if (typeof part === 'number') return `${name.endsWith('[]') ? name.slice(0, -2) : name}[${part}]`;
    return name ? `${name}.${String(part)}` : String(part);
  }, '');
}

function describeIssue(
  issue: z.core.$ZodIssue,
  location: Location,
  raw: unknown,
): { param: string; message: string } {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const param = paramName([...issue.path, key]);
    const what =
      location === 'query' ? 'query parameter' : location === 'body' ? 'body field' : 'path parameter';
    return { param, message: `Unknown ${what} ${param}.` };
  }
  const param = paramName(issue.path);
  const top = issue.path[0];
  const repeated =
    location === 'query' &&
    issue.path.length === 1 &&
    typeof top === 'string' &&
    !top.endsWith('[]') &&
    Array.isArray((raw as Record<string, unknown>)[top]);
  if (repeated) return { param, message: `${param} may be given only once.` };
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return { param, message: `${param} is required.` };
  }
  const message = issue.message.startsWith(param) || !param ? issue.message : `${param}: ${issue.message}`;
  return { param, message };
}

/**
 * The error code of the outermost `coded` schema on the way from `schema` to the part at `path`
 * (through objects, arrays, optional, nullable and the input side of pipes), if any; none for
 * the field missing altogether, unless the field says so.
 */
export function codeAlong(schema: z.core.$ZodType, issue: z.core.$ZodIssue): ErrorCode | undefined {
  const { path } = issue;
  let current: z.core.$ZodType | undefined = schema;
  let step = 0;
  while (current) {
    const coded = fieldCodes.get(current);
    if (coded) {
      const absent = step === path.length && issue.input === undefined;
      if (!absent) return coded.code;
      return coded.missing === true ? coded.code : coded.missing || undefined;
    }
    const def = current._zod.def as unknown as {
      type: string;
      innerType?: z.core.$ZodType;
      in?: z.core.$ZodType;
      shape?: Record<string, z.core.$ZodType>;
      element?: z.core.$ZodType;
    };
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else if (def.type === 'object' && step < path.length) current = def.shape?.[String(path[step++])];
    else if (def.type === 'array' && step < path.length && typeof path[step++] === 'number')
      current = def.element;
    else return undefined;
  }
  return undefined;
}

/**
 * A value no option of a union takes is reported as the option that got furthest in it (the
 * deepest path): `role=DR&role=XX` against "a code or a list of codes" is about `role[1]`.
 */
function furthest(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  let best: z.core.$ZodIssue | undefined;
  for (const option of issue.errors) {
    const first = option[0];
    if (first && (!best || first.path.length > best.path.length)) best = first;
  }
  return best ? furthest({ ...best, path: [...issue.path, ...best.path] }) : issue;
}

/** Parses `value` with `schema`, or throws the first problem as the API's error. */
export function check<T extends z.core.$ZodType>(schema: T, value: unknown, location: Location): z.output<T> {
  const result = z.safeParse(schema, value, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const first = issue && furthest(issue);
  if (!first) throw new ApiError('validation_error');
  const { param, message } = describeIssue(first, location, value);
  // A schema may give an issue its own status (an empty cursor is 400, as every cursor problem)
  // or code (a repeated document number is `duplicate_document_number`).
  const own =
    first.code === 'custom' ? (first.params as { status?: number; code?: ErrorCode } | undefined) : undefined;
  const status = own?.status;
  throw new ApiError(own?.code ?? codeAlong(schema, first) ?? 'validation_error', {
    param: param || null,
    message,
    ...(status === undefined ? {} : { status }),
  });
}

function decodePathParameters(raw: RawRequest): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw.pathParameters ?? {})) {
    if (value === undefined) continue;
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      decoded[name] = value;
    }
  }
  return decoded;
}

/**
 * Whether a JSON text nests arrays and objects deeper than `limit`, found by one pass over the
 * characters (brackets inside strings do not count). It runs before `JSON.parse`, so that nothing
 * recursive (`JSON.stringify` in the idempotency key, Powertools' payload hash, a log line) ever
 * sees a deeper value. An invalid text may be counted loosely; `JSON.parse` refuses it anyway.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character; an unescaped quote ends the string.
      if (char === 0x5c) i++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      depth++;
      if (depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
  return false;
}

function parseJsonBody(raw: RawRequest): unknown {
  if (raw.body === null || raw.body.trim() === '') return {};
  if (nestsDeeperThan(raw.body, MAX_JSON_DEPTH)) {
    throw new ApiError('invalid_json', {
      message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; the limit is ${MAX_JSON_DEPTH}.`,
    });
  }
  try {
    return JSON.parse(raw.body);
  } catch (error) {
    throw new ApiError('invalid_json', {
      message: `The request body is not valid JSON: ${(error as Error).message}. Send Content-Type: application/json with a JSON object.`,
    });
  }
}

/** A `formBody` route's HTML form (`application/x-www-form-urlencoded`), else the JSON body. */
function bodyOf(route: RouteDefinition, raw: RawRequest): unknown {
  const type = raw.headers['content-type'] ?? '';
  if (route.formBody && /^application\/x-www-form-urlencoded\b/i.test(type))
    return Object.fromEntries(new URLSearchParams(raw.body ?? ''));
  return parseJsonBody(raw);
}

/** Validates path, query and body (in that order) against the route; throws the first problem. */
export function parseRequest(route: RouteDefinition, raw: RawRequest) {
  const path = check(route.request.path, decodePathParameters(raw), 'path');
  const query = check(route.request.query, raw.query, 'query');
  const body = route.request.body ? check(route.request.body, bodyOf(route, raw), 'body') : undefined;
  return { path, query, body };
}
