/**
 * The order PDF compile: `tsx scripts/bench-pdf.ts [pages]` (default 500), or `measurePdfCompile`
 * from scripts/bench.ts. Builds an order of documents of 10 to 50 pages, each page a scanned
 * register form (a 200 dpi bilevel scan with ruled lines, boxes, typed text and speckle, like the
 * registry's images, under a typed header), then times `compileOrderPdf` on it. Building the
 * sources is not timed; heap and RSS are read after a full collection before, and straight after
 * the compile (its garbage not collected: what the compile took the process to).
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { deflateSync } from 'node:zlib';
import {
  concatTransformationMatrix,
  drawObject,
  PageSizes,
  PDFDocument,
  type PDFFont,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';
import { mulberry32 } from '../local/generated-data.ts';
import { compileOrderPdf } from '../shared/orders/pdf.ts';
import type { OrderDocument } from '../shared/orders/store-port.ts';

export interface PdfCompileMeasurement {
  pages: number;
  ms: number;
  heapDeltaMb: number;
  rssDeltaMb: number;
  /** Size of the compiled PDF. */
  bytes: number;
}

const MB = 1024 * 1024;
const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
/** A4 at 200 dpi, as the registry scans. */
const SCAN_WIDTH = 1654;
const SCAN_HEIGHT = 2339;
const SCAN_VARIANTS = 6;
const FORMS = [
  ['309', 'Notification of details of a charge'],
  ['312', 'Notification of discharge of a charge'],
  ['350', 'Certification of compliance'],
  ['484', 'Change to company details'],
  ['201', 'Application for registration as an Australian company'],
  ['388', 'Copy of financial statements and reports'],
] as const;

/** Full garbage collection: `global.gc` when node runs with --expose-gc, otherwise exposed here. */
export const collectGarbage: () => void = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** A flate-compressed 1-bit scan of a form (1 white, 0 black). */
function scan(seed: number): Uint8Array {
  const rand = mulberry32(seed); // deterministic: every run compiles the same order
  const rowBytes = Math.ceil(SCAN_WIDTH / 8);
  const bitmap = new Uint8Array(rowBytes * SCAN_HEIGHT).fill(0xff);
  const black = (x0: number, y0: number, width: number, height: number) => {
    for (let y = Math.max(0, y0); y < Math.min(SCAN_HEIGHT, y0 + height); y++) {
      for (let x = Math.max(0, x0); x < Math.min(SCAN_WIDTH, x0 + width); x++) {
        const i = y * rowBytes + (x >> 3);
        bitmap[i] = (bitmap[i] ?? 0) & ~(0x80 >> (x & 7));
      }
    }
  };
  const box = (x: number, y: number, width: number, height: number, thickness: number) => {
    black(x, y, width, thickness);
    black(x, y + height - thickness, width, thickness);
    black(x, y, thickness, height);
    black(x + width - thickness, y, thickness, height);
  };
  box(120, 120, SCAN_WIDTH - 240, SCAN_HEIGHT - 240, 4);
  let y = 360;
  while (y < SCAN_HEIGHT - 300) {
    const height = 90 + Math.floor(rand() * 140);
    box(160, y, SCAN_WIDTH - 320, height, 3);
    // Typed or handwritten entries: runs of word-sized marks on text lines.
    for (let line = y + 30; line < y + height - 30; line += 34) {
      let x = 200;
      const end = 200 + Math.floor(rand() * (SCAN_WIDTH - 500));
      while (x < end) {
        const word = 20 + Math.floor(rand() * 90);
        for (let stroke = 0; stroke < word; stroke += 6 + Math.floor(rand() * 6)) {
          black(
            x + stroke,
            line + Math.floor(rand() * 6),
            2 + Math.floor(rand() * 3),
            8 + Math.floor(rand() * 12),
          );
        }
        x += word + 14 + Math.floor(rand() * 10);
      }
    }
    y += height + 40;
    black(160, y - 20, SCAN_WIDTH - 320, 2);
  }
  // Scanner speckle.
  for (let i = 0; i < bitmap.length; i++) {
    if (rand() < 0.02) bitmap[i] = (bitmap[i] ?? 0) & ~(0x80 >> Math.floor(rand() * 8));
  }
  return deflateSync(bitmap);
}

let scans: Uint8Array[] | undefined;

/** One registry document: `pages` scanned pages of one form. */
async function registryDocument(
  documentNumber: string,
  form: (typeof FORMS)[number],
  pages: number,
  seed: number,
) {
  scans ??= Array.from({ length: SCAN_VARIANTS }, (_, i) => scan(i + 1));
  const pdf = await PDFDocument.create();
  const font: PDFFont = await pdf.embedFont(StandardFonts.Courier);
  for (let n = 0; n < pages; n++) {
    const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    // Its own image object per page, as a scanner produces; the bytes are shared only in memory.
    const image = pdf.context.register(
      pdf.context.stream(scans[(seed + n) % SCAN_VARIANTS] ?? new Uint8Array(), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: SCAN_WIDTH,
        Height: SCAN_HEIGHT,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 1,
        Filter: 'FlateDecode',
      }),
    );
    const name = page.node.newXObject('Scan', image);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(PAGE_WIDTH, 0, 0, PAGE_HEIGHT, 0, 0),
      drawObject(name),
      popGraphicsState(),
    );
    page.setFont(font);
    page.drawText(`Form ${form[0]}  ${form[1]}`, { x: 60, y: PAGE_HEIGHT - 48, size: 11 });
    page.drawLine({
      start: { x: 60, y: PAGE_HEIGHT - 54 },
      end: { x: PAGE_WIDTH - 60, y: PAGE_HEIGHT - 54 },
    });
    page.drawText(`Document ${documentNumber}   page ${n + 1} of ${pages}`, { x: 60, y: 30, size: 8 });
  }
  return pdf.save();
}

/** The order's documents (10 to 50 pages each, `pages` in all) and their images. */
async function buildOrder(pages: number) {
  const rand = mulberry32(pages);
  const documents: OrderDocument[] = [];
  const images = new Map<string, Uint8Array>();
  for (let left = pages, i = 0; left > 0; i++) {
    const count = Math.min(left, 10 + Math.floor(rand() * 41));
    const form = FORMS[i % FORMS.length] ?? FORMS[0];
    const documentNumber = `0E${String(1_000_000 + i * 7919).padStart(7, '0')}`;
    documents.push({
      documentNumber,
      formCode: form[0],
      pageCount: count,
      pages: null,
      imageAvailable: true,
    });
    images.set(documentNumber, await registryDocument(documentNumber, form, count, i));
    left -= count;
  }
  return { documents, images };
}

export async function measurePdfCompile(pages: number): Promise<PdfCompileMeasurement> {
  const order = await buildOrder(pages);
  collectGarbage();
  const before = process.memoryUsage();
  const start = performance.now();
  const result = await compileOrderPdf({
    orderId: 'ord_bench',
    title: 'Document images',
    createdAt: '2026-11-21T10:00:00Z',
    company: { name: 'BENCHMARK HOLDINGS PTY LTD', formatted: 'ACN 004 085 616' },
    documents: order.documents,
    notices: [],
    images: async (documentNumber) => order.images.get(documentNumber),
  });
  const ms = performance.now() - start;
  const after = process.memoryUsage();
  if (result.pageCount !== result.coverPages + pages) {
    throw new Error(`compiled ${result.pageCount} pages, expected ${result.coverPages} + ${pages}`);
  }
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    pages,
    ms: Math.round(ms),
    heapDeltaMb: round((after.heapUsed - before.heapUsed) / MB),
    rssDeltaMb: round((after.rss - before.rss) / MB),
    bytes: result.bytes.length,
  };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) {
  const pages = Number(process.argv[2] ?? 500);
  if (!Number.isInteger(pages) || pages < 1) throw new Error('usage: tsx scripts/bench-pdf.ts [pages]');
  const result = await measurePdfCompile(pages);
  console.log(
    `PDF compile, ${result.pages} pages: ${result.ms} ms, heap +${result.heapDeltaMb} MB, ` +
      `RSS +${result.rssDeltaMb} MB, ${(result.bytes / MB).toFixed(1)} MB`,
  );
}
