/**
 * What a person's name may hold, for our checks and the registry's alike: letters of any script
 * (with their combining marks), hyphens, apostrophes (' and ’) and spaces. Anything else is the
 * registry's PN03, our `name_invalid_characters`.
 */
export const PERSON_NAME_PATTERN = /^[\p{L}\p{M}'’\- ]+$/u;
