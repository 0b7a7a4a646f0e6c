import { decodePDFRawStream, PDFArray, PDFDocument, type PDFRawStream, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { compileOrderPdf, type OrderPdfInput, winAnsi } from '../../shared/orders/pdf.ts';
import type { OrderDocument } from '../../shared/orders/store-port.ts';

const CREATED_AT = '2026-11-21T10:00:00Z';

/** A source PDF whose pages are told apart by their widths. */
async function source(widths: number[]) {
  const pdf = await PDFDocument.create();
  for (const width of widths) pdf.addPage([width, 500]).drawText(`page ${width}`, { x: 20, y: 400 });
  return pdf.save();
}

const doc = (
  documentNumber: string,
  pageCount: number,
  fields: Partial<OrderDocument> = {},
): OrderDocument => ({
  documentNumber,
  formCode: '309',
  pageCount,
  pages: null,
  imageAvailable: true,
  ...fields,
});

function input(fields: Partial<OrderPdfInput> & Pick<OrderPdfInput, 'documents' | 'images'>): OrderPdfInput {
  return {
    orderId: 'ord_1',
    title: 'Charges extract',
    createdAt: CREATED_AT,
    company: { name: 'EXAMPLE PTY LTD', formatted: 'ACN 004 085 616' },
    notices: [],
    ...fields,
  };
}

// pdf-lib writes WinAnsi codes; these are the ones the cover uses outside Latin-1.
const WIN_ANSI_EXTRA: Record<number, string> = { 133: '\u2026', 149: '\u2022', 150: '\u2013' };

/** The text drawn on a page, with where each piece starts (pdf-lib: a Tm, then one Tj). */
function textOf(pdf: PDFDocument, index: number) {
  const contents = pdf.getPage(index).node.Contents();
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => pdf.context.lookup(ref)) : [contents];
  const operators = streams
    .map((stream) => Buffer.from(decodePDFRawStream(stream as PDFRawStream).decode()).toString('latin1'))
    .join('\n');
  return [...operators.matchAll(/1 0 0 1 (\S+) (\S+) Tm\n<([0-9A-F]*)> Tj/g)].map(([, x, y, hex]) => ({
    x: Number(x),
    y: Number(y),
    text: [...Buffer.from(hex ?? '', 'hex')].map((b) => WIN_ANSI_EXTRA[b] ?? String.fromCharCode(b)).join(''),
  }));
}

const load = (bytes: Uint8Array) => PDFDocument.load(bytes, { updateMetadata: false });

describe('compileOrderPdf', () => {
  it('puts a cover first, then the pages of each available document in order', async () => {
    const sources: Record<string, Uint8Array> = {
      A: await source([301, 302, 303]),
      C: await source([321, 322]),
    };
    const requested: string[] = [];
    const result = await compileOrderPdf(
      input({
        documents: [doc('A', 3), doc('B', 4, { imageAvailable: false, formCode: '350' }), doc('C', 2)],
        notices: ['The image of document B is not available.'],
        images: async (documentNumber) => {
          requested.push(documentNumber);
          return sources[documentNumber];
        },
      }),
    );

    expect(requested).toEqual(['A', 'C']);
    expect(result).toMatchObject({ pageCount: 6, coverPages: 1, imagesMissing: [] });
    const pdf = await load(result.bytes);
    expect(pdf.getPageCount()).toBe(6);
    expect(pdf.getPages().map((page) => page.getWidth())).toEqual([595.28, 301, 302, 303, 321, 322]);
    expect(pdf.getTitle()).toBe('Charges extract ord_1');
    expect(pdf.getSubject()).toBe('Charges extract: EXAMPLE PTY LTD, ACN 004 085 616');
    expect(pdf.getProducer()).toBe('Company Register Data Service');
    expect(pdf.getCreationDate()?.toISOString()).toBe('2026-11-21T10:00:00.000Z');

    const lines = textOf(pdf, 0).map((t) => t.text);
    for (const expected of [
      'Charges extract',
      'Order ord_1',
      'Created 2026-11-21 10:00 UTC',
      'EXAMPLE PTY LTD',
      'ACN 004 085 616',
      '3 documents: 5 pages of images; 1 image unavailable',
      'pages 2\u20134',
      'image unavailable',
      'pages 5\u20136',
      'Notices',
      'The image of document B is not available.',
      'Cover page 1 of 1',
    ]) {
      expect(lines).toContain(expected);
    }
    // The row of B: number, document, form, pages ordered, where.
    const row = lines.slice(lines.indexOf('B') - 1, lines.indexOf('B') + 4);
    expect(row).toEqual(['2', 'B', '350', '4', 'image unavailable']);
  });

  it('skips a document whose images are undefined and names it unavailable', async () => {
    const result = await compileOrderPdf(
      input({
        documents: [doc('A', 3), doc('B', 2, { pages: { from: 4, to: 5 } })],
        images: async (documentNumber) => (documentNumber === 'B' ? source([401, 402]) : undefined),
      }),
    );
    expect(result).toMatchObject({ pageCount: 3, coverPages: 1, imagesMissing: ['A'] });
    const pdf = await load(result.bytes);
    expect(pdf.getPages().map((page) => page.getWidth())).toEqual([595.28, 401, 402]);
    const lines = textOf(pdf, 0).map((t) => t.text);
    expect(lines.slice(lines.indexOf('A') - 1, lines.indexOf('A') + 4)).toEqual([
      '1',
      'A',
      '309',
      '3',
      'image unavailable',
    ]);
    expect(lines.slice(lines.indexOf('B') - 1, lines.indexOf('B') + 4)).toEqual([
      '2',
      'B',
      '309',
      '2 (pp. 4\u20135)',
      'pages 2\u20133',
    ]);
  });

  it('loads one document at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const result = await compileOrderPdf(
      input({
        documents: [doc('A', 1), doc('B', 1), doc('C', 1)],
        images: async () => {
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inFlight--;
          return source([300]);
        },
      }),
    );
    expect(most).toBe(1);
    expect(result.pageCount).toBe(4);
  });

  it('flows a 200-document table onto more cover pages, all of it on the page', async () => {
    const one = await source([300]);
    const documents = Array.from({ length: 200 }, (_, i) => doc(`0${String(i).padStart(8, '0')}`, 1));
    const notices = Array.from(
      { length: 10 },
      (_, i) => `Notice ${i}: ${'a long notice that wraps '.repeat(8)}`,
    );
    const result = await compileOrderPdf(input({ documents, notices, images: async () => one }));

    // 43 rows fit the first page, 53 each further page: 43 + 53 + 53 + 51, then the notices.
    expect(result).toMatchObject({ coverPages: 5, pageCount: 205 });
    const pdf = await load(result.bytes);
    expect(pdf.getPageCount()).toBe(205);
    const covers = Array.from({ length: 5 }, (_, i) => textOf(pdf, i));
    for (const [i, texts] of covers.entries()) {
      for (const { x, y } of texts) {
        expect(x).toBeGreaterThanOrEqual(50);
        expect(x).toBeLessThan(545.28);
        expect(y).toBeGreaterThanOrEqual(50);
        expect(y).toBeLessThanOrEqual(841.89 - 50);
      }
      const lines = texts.map((t) => t.text);
      expect(lines).toContain(`Cover page ${i + 1} of 5`);
      if (i < 4) expect(lines).toContain('Document number');
    }
    const documentNumbers = covers.flatMap((texts) =>
      texts.map((t) => t.text).filter((t) => /^0\d{8}$/.test(t)),
    );
    expect(documentNumbers).toEqual(documents.map((d) => d.documentNumber));
    expect(covers.map((texts) => texts.filter((t) => /^0\d{8}$/.test(t.text)).length)).toEqual([
      43, 53, 53, 51, 0,
    ]);
    const last = covers[3]?.map((t) => t.text) ?? [];
    expect(last.slice(last.indexOf('000000199') - 1, last.indexOf('000000199') + 4)).toEqual([
      '200',
      '000000199',
      '309',
      '1',
      'page 205',
    ]);
    const notices4 = covers[3]?.filter((t) => t.text.startsWith('Notice ')).length ?? 0;
    const notices5 = covers[4]?.filter((t) => t.text.startsWith('Notice ')).length ?? 0;
    expect([notices4, notices5]).toEqual([0, 10]);
  });

  it('compiles a company name and notices outside WinAnsi', async () => {
    const result = await compileOrderPdf(
      input({
        company: { name: '漢字 ŁÓDŹ PTY LTD', formatted: 'ACN 004 085 616' },
        documents: [doc('0ABC\u200b😀', 1)],
        notices: ['Ünïcödé ✓ 😀 — ﬁne\tline'],
        images: async () => source([300]),
      }),
    );
    expect(result.pageCount).toBe(2);
    const pdf = await load(result.bytes);
    expect(pdf.getSubject()).toBe('Charges extract: 漢字 ŁÓDŹ PTY LTD, ACN 004 085 616');
    const lines = textOf(pdf, 0).map((t) => t.text);
    expect(lines).toContain('?? LÓDZ PTY LTD');
    expect(lines).toContain('0ABC?');
  });

  it('names several records when there is no company', async () => {
    const result = await compileOrderPdf(
      input({
        title: 'Document images',
        company: null,
        documents: [doc('A', 1)],
        images: async () => source([300]),
      }),
    );
    const pdf = await load(result.bytes);
    expect(pdf.getTitle()).toBe('Document images ord_1');
    expect(pdf.getSubject()).toBe('Document images');
    expect(textOf(pdf, 0).map((t) => t.text)).toContain('Several records');
  });

  it('gives the same bytes for the same order', async () => {
    const bytes = await source([300, 310]);
    const order = input({ documents: [doc('A', 2)], notices: ['n'], images: async () => bytes });
    const first = await compileOrderPdf(order);
    const second = await compileOrderPdf(order);
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
  });

  it('fails naming the document whose images are not a PDF', async () => {
    const order = input({
      documents: [doc('A', 1)],
      images: async () => new TextEncoder().encode('not a pdf'),
    });
    await expect(compileOrderPdf(order)).rejects.toThrow('the images of document A are not a readable PDF');
  });

  it('fails on an invalid creation time', async () => {
    const order = input({ createdAt: 'yesterday', documents: [], images: async () => undefined });
    await expect(compileOrderPdf(order)).rejects.toThrow('invalid createdAt');
  });
});

describe('winAnsi', () => {
  it('keeps WinAnsi text, drops accents it cannot encode and replaces the rest', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const text = winAnsi(new Set(font.getCharacterSet()));
    expect(text('Café – “Œuvre” €5')).toBe('Café – “Œuvre” €5');
    expect(text('ŁÓDŹ Đakovo ﬁsh')).toBe('LÓDZ Dakovo fish');
    expect(text('a\tb\n\nc\u00ad\u200bd')).toBe('a b cd');
    expect(text('漢字😀')).toBe('???');
    expect(() => font.widthOfTextAtSize(text('漢字 ŁÓDŹ'), 10)).not.toThrow();
  });
});
