import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mailer, MailMessage } from '../shared/kernel/ports/mailer.ts';

export const DEFAULT_MAIL_FROM = 'orders@company-register.local';

export interface OutboxAttachment {
  filename: string;
  contentType: string;
  /** Size in bytes. */
  bytes: number;
  /** The attachment's file in the message folder. */
  file: string;
}

/** `message.json` of a sent message. */
export interface OutboxMessage {
  idempotencyKey: string;
  sentAt: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  attachments: OutboxAttachment[];
}

/** A sent message as `list()` returns it: its JSON and the folder holding it. */
export interface OutboxEntry extends OutboxMessage {
  folder: string;
}

/**
 * SES stand-in: each message becomes a folder `<dir>/<idempotency key>/` holding `message.eml`
 * (MIME, opens in any mail client), `message.json` and the attachments as files. A message whose
 * key was already sent writes nothing, as the SES adapter sends nothing.
 */
export class OutboxMailer implements Mailer {
  constructor(
    readonly dir: string,
    readonly from: string = DEFAULT_MAIL_FROM,
  ) {}

  folderOf(idempotencyKey: string): string {
    return join(this.dir, folderName(idempotencyKey));
  }

  async send(message: MailMessage): Promise<void> {
    const folder = this.folderOf(message.idempotencyKey);
    if (await exists(folder)) return;
    await mkdir(this.dir, { recursive: true });
    // Written aside and renamed into place: a concurrent send of the same key finds the folder
    // complete or not at all, and the loser of the rename discards its copy.
    const temp = await mkdtemp(join(this.dir, '.sending-'));
    try {
      const sentAt = new Date();
      const attachments: OutboxAttachment[] = [];
      const used = new Set(['message.eml', 'message.json']);
      for (const [i, attachment] of message.attachments.entries()) {
        const file = attachmentFile(attachment.filename, i, used);
        await writeFile(join(temp, file), attachment.content);
        attachments.push({
          filename: attachment.filename,
          contentType: attachment.contentType,
          bytes: attachment.content.byteLength,
          file,
        });
      }
      const json: OutboxMessage = {
        idempotencyKey: message.idempotencyKey,
        sentAt: sentAt.toISOString(),
        to: message.to,
        from: this.from,
        subject: message.subject,
        text: message.text,
        attachments,
      };
      await writeFile(join(temp, 'message.eml'), mimeMessage(message, this.from, sentAt));
      await writeFile(join(temp, 'message.json'), `${JSON.stringify(json, null, 2)}\n`);
      await rename(temp, folder);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await exists(folder))) return;
      throw error;
    }
  }

  /** Every sent message, oldest first. */
  async list(): Promise<OutboxEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: OutboxEntry[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const folder = join(this.dir, name);
      try {
        const json = JSON.parse(await readFile(join(folder, 'message.json'), 'utf8')) as OutboxMessage;
        entries.push({ ...json, folder });
      } catch {
        // Not a message folder.
      }
    }
    return entries.sort((a, b) => a.sentAt.localeCompare(b.sentAt) || a.folder.localeCompare(b.folder));
  }
}

/** A folder name for any key: safe characters kept, and a hash when anything had to change. */
export function folderName(idempotencyKey: string): string {
  const safe = idempotencyKey.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  if (safe === idempotencyKey && !/^\.*$/.test(safe)) return safe;
  const hash = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 12);
  return `${safe.replace(/^\.+/, '_')}-${hash}`;
}

function attachmentFile(filename: string, index: number, used: Set<string>): string {
  const base = (filename.split(/[/\\]/).pop() ?? '').replace(/[^\p{L}\p{N}._ ()-]/gu, '_');
  let file = base && !base.startsWith('.') ? base : `attachment-${index + 1}`;
  if (used.has(file.toLowerCase())) file = `${index + 1}-${file}`;
  used.add(file.toLowerCase());
  return file;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

const CRLF = '\r\n';
const isPlainAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/** RFC 2047 encoded words for a header value that is not plain ASCII. */
function headerText(value: string): string {
  const text = oneLine(value);
  if (isPlainAscii(text)) return text;
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    // 45 bytes of UTF-8 make 60 characters of base64: each word stays under 75 characters.
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join(`${CRLF} `);
}

/** `name="…"` or, beyond plain ASCII, its RFC 2231 form. */
function fileParameter(name: string, value: string): string {
  if (isPlainAscii(value) && !/["\\]/.test(value)) return `${name}="${value}"`;
  const encoded = encodeURIComponent(value).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${name}*=UTF-8''${encoded}`;
}

const base64Lines = (content: Uint8Array) =>
  (
    Buffer.from(content)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join(CRLF);

function textPart(text: string): string[] {
  const normalised = text.replace(/\r?\n/g, CRLF);
  const sevenBit =
    /^[\x20-\x7e\r\n\t]*$/.test(normalised) && normalised.split(CRLF).every((l) => l.length <= 998);
  return [
    'Content-Type: text/plain; charset=utf-8',
    `Content-Transfer-Encoding: ${sevenBit ? '7bit' : 'base64'}`,
    '',
    sevenBit ? normalised : base64Lines(Buffer.from(normalised)),
  ];
}

/** A multipart/mixed message: the text, then each attachment in base64. */
export function mimeMessage(message: MailMessage, from: string, date: Date): string {
  const boundary = `=_crds_${randomBytes(12).toString('hex')}`;
  const messageId = createHash('sha256').update(message.idempotencyKey).digest('hex').slice(0, 32);
  const lines = [
    `From: ${oneLine(from)}`,
    `To: ${oneLine(message.to)}`,
    `Subject: ${headerText(message.subject)}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${messageId}@company-register.local>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    'This is a multi-part message in MIME format.',
    `--${boundary}`,
    ...textPart(message.text),
  ];
  for (const attachment of message.attachments) {
    lines.push(
      `--${boundary}`,
      `Content-Type: ${oneLine(attachment.contentType)}; ${fileParameter('name', attachment.filename)}`,
      `Content-Disposition: attachment; ${fileParameter('filename', attachment.filename)}`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(attachment.content),
    );
  }
  lines.push(`--${boundary}--`, '');
  return lines.join(CRLF);
}
