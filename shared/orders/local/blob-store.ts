import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobStore } from '../store-port.ts';

/** S3 stand-in: each object is a file under `dir`, its key the relative path (`/` makes folders). */
export class FileBlobStore implements BlobStore {
  constructor(readonly dir: string) {}

  /** The file holding `key`; keys that would leave the folder are refused. */
  pathOf(key: string): string {
    const segments = key.split('/');
    if (
      !key ||
      segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))
    )
      throw new Error(`blob key not allowed locally: ${JSON.stringify(key)}`);
    return join(this.dir, ...segments);
  }

  async put(key: string, body: Uint8Array, _contentType: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Readers never see half a file: written aside, then renamed over the key at once.
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, body);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}

const isMissing = (error: unknown) =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');
