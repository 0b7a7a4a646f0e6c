/**
 * The one way tests and the bench launch headless Chromium (playwright-core downloads no browser).
 *
 * In order: the browser named by `CHROMIUM_PATH`; else, on Linux x86-64, the Chromium that
 * `@sparticuz/chromium` ships inside its npm package (so `npm ci` brings the browser), unpacked
 * once per version under `.local/chromium-<version>/`; else the system's Chromium
 * (`/usr/bin/chromium`, `/usr/bin/chromium-browser`). `launchBrowser()` says which one it launched
 * (`source`), so a test can insist on the packaged one.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export type BrowserSource = 'CHROMIUM_PATH' | 'npm' | 'system';

export interface LaunchedBrowser {
  browser: Browser;
  executablePath: string;
  source: BrowserSource;
}

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The package's binary runs on Linux x86-64 (it is built for Lambda's x86-64 and arm64 images; this package carries x86-64). */
export const packagedChromiumRuns = (): boolean => platform() === 'linux' && arch() === 'x64';

const packageVersion = (): string =>
  (
    JSON.parse(readFileSync(resolve('node_modules/@sparticuz/chromium/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/**
 * Unpacks the packaged Chromium into `.local/chromium-<version>/` the first time, and returns its
 * path. The package unpacks into `os.tmpdir()`; it is pointed at a directory of this process's own,
 * which is then renamed into place, so parallel test workers (and other checkouts on the machine,
 * which would share `/tmp/chromium`) never see a half-written binary.
 */
export async function packagedChromium(): Promise<string> {
  const target = resolve('.local', `chromium-${packageVersion()}`);
  const binary = join(target, 'chromium');
  if (existsSync(binary)) return binary;
  const scratch = `${target}.${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  try {
    const { default: Chromium } = await import('@sparticuz/chromium');
    await Chromium.executablePath();
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  try {
    renameSync(scratch, target);
  } catch {
    // Another worker put its copy in place first: use that one.
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!existsSync(binary)) throw new Error(`@sparticuz/chromium did not unpack to ${binary}`);
  return binary;
}

/** Which Chromium to launch, and why. */
export async function chooseChromium(): Promise<{ executablePath: string; source: BrowserSource }> {
  const named = process.env.CHROMIUM_PATH;
  if (named) {
    if (!existsSync(named)) throw new Error(`CHROMIUM_PATH names ${named}, which does not exist`);
    return { executablePath: named, source: 'CHROMIUM_PATH' };
  }
  if (packagedChromiumRuns()) return { executablePath: await packagedChromium(), source: 'npm' };
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path));
  if (!system)
    throw new Error(
      `no Chromium for ${platform()}/${arch()}: @sparticuz/chromium runs on Linux x86-64 only; install Chromium and set CHROMIUM_PATH`,
    );
  return { executablePath: system, source: 'system' };
}

/** Headless Chromium, launched from the chosen binary (see the module's comment). */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const { executablePath, source } = await chooseChromium();
  // The packaged binary is a headless shell built without a sandbox helper; it brings its own fonts.
  const fonts = source === 'npm' ? join(executablePath, '..', 'fonts') : undefined;
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
    ...(fonts && !existsSync('/etc/fonts/fonts.conf') && existsSync(fonts)
      ? { env: { ...process.env, FONTCONFIG_PATH: fonts } as Record<string, string> }
      : {}),
  });
  return { browser, executablePath, source };
}
