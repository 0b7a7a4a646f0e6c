/**
 * Headers on every response, from the functions, the gateway's own answers and the local stack:
 * HTTPS only for a year (the API has no plain-HTTP endpoint, and a browser that once reached the
 * docs never downgrades), and no content sniffing (a JSON answer is never run as script).
 */
export const SECURITY_HEADERS = {
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
} as const;
