import * as z from 'zod/mini';
import type { ErrorCode } from '../kernel/errors/catalogue.ts';
import { coded, codedPattern } from '../kernel/http/schemas.ts';

/**
 * What a person's name may hold, for our checks and the registry's alike: letters of any script
 * (with their combining marks), hyphens, apostrophes (' and ’) and spaces. Anything else is the
 * registry's PN03, our `name_invalid_characters`.
 */
export const PERSON_NAME_PATTERN = /^[\p{L}\p{M}'’\- ]+$/u;

/** A name as a request gives it: those characters, at least one of them not a space. */
const PERSON_NAME_FIELD = /^[\p{L}\p{M}'’\- ]*[\p{L}\p{M}'’-][\p{L}\p{M}'’\- ]*$/u;

const MAX_NAME_LENGTH = 100;

/**
 * A person's name in a request (a people search, a monitored person), checked by the request's
 * schema and said in the contract: at most 100 characters, not blank (`blank`: the code a blank
 * or, with `missing`, an absent name gets), and only letters, hyphens, apostrophes and spaces
 * (`name_invalid_characters`).
 */
export const personNameField = (blank: ErrorCode, { missing = false } = {}) =>
  coded(
    'validation_error',
    codedPattern(
      z.string({ error: 'must be a string' }).check(
        z.maxLength(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`),
        z.refine((name) => name.trim() !== '', { error: 'must not be blank', params: { code: blank } }),
      ),
      PERSON_NAME_FIELD,
      'name_invalid_characters',
      'may hold only letters, hyphens, apostrophes and spaces',
    ),
    { missing: missing ? blank : false },
  );
