/**
 * Where webhooks may go (SSRF guard): only public unicast addresses. Hosts that are IP literals
 * are parsed in every spelling a resolver or URL parser accepts (decimal `2130706433`, hex
 * `0x7f000001`, octal `0177.0.0.1`, short `127.1`, IPv6 with embedded IPv4), and every address a
 * name resolves to is checked at connection time (https-sender.ts), so DNS rebinding cannot
 * get around the check made when the endpoint was created.
 */
import { isIPv6 } from 'node:net';

/** Options for the local stack and tests: loopback receivers allowed only when configured. */
export interface AddressPolicy {
  allowLoopback?: boolean;
}

/**
 * An IPv4 literal as inet_aton and the WHATWG URL parser read it: one to four parts, each
 * decimal, octal (leading 0) or hex (0x); the last part fills the remaining bytes. Null if the
 * text is not one.
 */
export function parseIPv4(text: string): number[] | null {
  const host = text.endsWith('.') ? text.slice(0, -1) : text;
  const parts = host.split('.');
  if (parts.length === 0 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0[xX][0-9a-fA-F]*$/.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255)) return null;
  const room = 4 - values.length;
  if (last >= 256 ** room) return null;
  const bytes = [...values];
  for (let i = room - 1; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return bytes;
}

/** An IPv6 literal (brackets and zone allowed) as 16 bytes, or null. */
export function parseIPv6(text: string): number[] | null {
  let host = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = host.indexOf('%');
  if (zone >= 0) host = host.slice(0, zone);
  if (!isIPv6(host)) return null;
  let words: number[] = [];
  const [head = '', tail] = host.split('::') as [string, string | undefined];
  const toWords = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const v4 = parseIPv4(piece) ?? [0, 0, 0, 0];
        out.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else out.push(Number.parseInt(piece, 16));
    }
    return out;
  };
  if (tail === undefined) words = toWords(head);
  else {
    const left = toWords(head);
    const right = toWords(tail);
    words = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  }
  if (words.length !== 8) return null;
  return words.flatMap((word) => [word >> 8, word & 255]);
}

const inV4 = (bytes: readonly number[], prefix: readonly number[], bits: number): boolean => {
  const address = bytes.reduce((n, b) => n * 256 + b, 0);
  const base = prefix.reduce((n, b) => n * 256 + b, 0);
  const size = 2 ** (32 - bits);
  return Math.floor(address / size) === Math.floor(base / size);
};

/** Not public unicast IPv4 (RFC 6890 special-purpose blocks, multicast, reserved). */
const V4_BLOCKED: [number[], number][] = [
  [[0, 0, 0, 0], 8], // "this network", unspecified
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // CGNAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local, cloud metadata 169.254.169.254
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

const refuse = (reason: string): AddressVerdict => ({ allowed: false, reason });

export function checkIPv4(bytes: readonly number[], policy: AddressPolicy = {}): AddressVerdict {
  if (policy.allowLoopback && bytes[0] === 127) return { allowed: true };
  const hit = V4_BLOCKED.find(([prefix, bits]) => inV4(bytes, prefix, bits));
  return hit
    ? refuse(`${bytes.join('.')} is in ${hit[0].join('.')}/${hit[1]}, not a public address`)
    : { allowed: true };
}

const startsWith = (bytes: readonly number[], prefix: readonly number[]) =>
  prefix.every((b, i) => bytes[i] === b);

export function checkIPv6(bytes: readonly number[], policy: AddressPolicy = {}): AddressVerdict {
  const first = bytes[0] as number;
  const isZero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (isZero(0, 16)) return refuse(':: is the unspecified address');
  if (isZero(0, 15) && bytes[15] === 1) {
    return policy.allowLoopback ? { allowed: true } : refuse('::1 is loopback');
  }
  // IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96), IPv4-translated (::ffff:0:0:0/96):
  // never a public peer of ours, whatever they embed.
  if (isZero(0, 10) && ((bytes[10] === 0xff && bytes[11] === 0xff) || (bytes[10] === 0 && bytes[11] === 0)))
    return refuse('IPv4-mapped or IPv4-compatible IPv6 addresses are not allowed');
  if (isZero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff)
    return refuse('IPv4-translated addresses are not allowed');
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]))
    return refuse('NAT64 addresses (64:ff9b::/96, 64:ff9b:1::/48) are not allowed');
  if ((first & 0xe0) !== 0x20) {
    // Outside 2000::/3 (global unicast): fc00::/7 unique-local, fe80::/10 link-local, ff00::/8 multicast, reserved.
    if ((first & 0xfe) === 0xfc) return refuse('fc00::/7 is unique-local');
    if (first === 0xfe && ((bytes[1] as number) & 0xc0) === 0x80) return refuse('fe80::/10 is link-local');
    if (first === 0xff) return refuse('ff00::/8 is multicast');
    return refuse('not a global unicast address (2000::/3)');
  }
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8])) return refuse('2001:db8::/32 is for documentation');
  if (startsWith(bytes, [0x20, 0x01]) && (bytes[2] as number) < 0x02)
    return refuse('2001::/23 is reserved for protocols (Teredo included)');
  if (startsWith(bytes, [0x20, 0x02])) {
    // 6to4 embeds an IPv4 address: judged by it.
    return checkIPv4(bytes.slice(2, 6), {});
  }
  return { allowed: true };
}

/** Whether a resolved address (as `dns.lookup` gives it) may be connected to. */
export function checkAddress(address: string, policy: AddressPolicy = {}): AddressVerdict {
  const v6 = parseIPv6(address);
  if (v6) return checkIPv6(v6, policy);
  const v4 = /^\d+\.\d+\.\d+\.\d+$/.test(address) ? parseIPv4(address) : null;
  if (v4) return checkIPv4(v4, policy);
  return refuse(`${address} is not an IP address`);
}

/** A host name as a resolver reads it: lower case, without the trailing dots of a fully qualified name. */
export const normaliseHostName = (host: string) => host.toLowerCase().replace(/\.+$/, '');

/**
 * A host name as written in a URL: an IP literal in any spelling is judged now; a name is
 * allowed here (its addresses are checked when connecting). `localhost` and names under it are
 * loopback whatever DNS says.
 */
export function checkHost(host: string, policy: AddressPolicy = {}): AddressVerdict & { literal: boolean } {
  // `localhost.` and `LOCALHOST` are `localhost` to a resolver: judge the name it will look up.
  const name = normaliseHostName(host);
  if (name === '') return { ...refuse(`${host} is not a valid host name`), literal: false };
  const v6 = parseIPv6(name);
  if (v6) return { ...checkIPv6(v6, policy), literal: true };
  const v4 = parseIPv4(name);
  if (v4) return { ...checkIPv4(v4, policy), literal: true };
  if (/^[0-9.]+$|^0x/i.test(name.split('.').at(-1) ?? '')) {
    // Looks numeric but is no valid literal (e.g. 256.1.1.1): a resolver might still read it.
    return { ...refuse(`${host} is not a valid host name`), literal: true };
  }
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return policy.allowLoopback
      ? { allowed: true, literal: false }
      : { ...refuse('localhost is loopback'), literal: false };
  }
  return { allowed: true, literal: false };
}

/**
 * A webhook URL as the API accepts it: `https`, no credentials, a host that is not a refused
 * literal. Returns the reason it is refused, or null.
 */
export function checkWebhookUrl(text: string, policy: AddressPolicy = {}): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol !== 'https:') return 'url must use https';
  if (url.username || url.password) return 'url must not carry credentials';
  if (url.hash) return 'url must not have a fragment';
  // The WHATWG parser has already turned numeric IPv4 spellings into dotted decimal; the raw
  // authority is checked too, in case another parser reads it differently.
  const raw = /^https:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(text)?.[1] ?? url.hostname;
  for (const host of new Set([url.hostname, raw])) {
    const verdict = checkHost(host, policy);
    if (!verdict.allowed) return `url host is not allowed: ${verdict.reason}`;
  }
  return null;
}
