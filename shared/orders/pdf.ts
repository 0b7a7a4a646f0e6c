/**
 * Compiles an order's document images into one PDF (spec document 1, 2.5): cover pages naming
 * the company, the documents included and the notices, then the pages of each document.
 */
import { PageSizes, ParseSpeeds, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { OrderDocument } from './store-port.ts';

export interface OrderPdfInput {
  orderId: string;
  /** 'Charges extract' or 'Document images'. */
  title: string;
  /** RFC 3339. */
  createdAt: string;
  /** Null for image orders spanning several records. `formatted`: e.g. 'ACN 004 085 616'. */
  company: { name: string; formatted: string } | null;
  documents: readonly OrderDocument[];
  notices: readonly string[];
  /** The images of one document as a PDF (only its ordered pages), or undefined when unavailable. */
  images(documentNumber: string): Promise<Uint8Array | undefined>;
}

export interface OrderPdf {
  bytes: Uint8Array;
  /** Cover pages and document pages. */
  pageCount: number;
  coverPages: number;
  /** Documents marked available whose images were nonetheless missing (shown as unavailable on the cover). */
  imagesMissing: string[];
}

export const PDF_PRODUCER = 'Company Register Data Service';

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN = 50;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const TOP = PAGE_HEIGHT - MARGIN;
/** Room kept below the content for the footer. */
const BOTTOM = MARGIN + 24;
const BLACK = rgb(0, 0, 0);
const GREY = rgb(0.4, 0.4, 0.4);
const SHADE = rgb(0.94, 0.94, 0.94);
const ROW_SIZE = 9;
const ROW_HEIGHT = 13;
const COLUMNS = [
  { header: '#', x: 0, width: 28 },
  { header: 'Document number', x: 28, width: 120 },
  { header: 'Form', x: 148, width: 60 },
  { header: 'Pages ordered', x: 208, width: 110 },
  { header: 'In this PDF', x: 318, width: CONTENT_WIDTH - 318 },
] as const;

export async function compileOrderPdf(input: OrderPdfInput): Promise<OrderPdf> {
  const created = new Date(input.createdAt);
  if (Number.isNaN(created.getTime())) throw new Error(`Order ${input.orderId}: invalid createdAt`);

  // Without updateMetadata false, pdf-lib writes its own producer and the current time.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`${input.title} ${input.orderId}`, { showInWindowTitleBar: true });
  pdf.setSubject(
    input.company ? `${input.title}: ${input.company.name}, ${input.company.formatted}` : input.title,
  );
  pdf.setProducer(PDF_PRODUCER);
  pdf.setCreator(PDF_PRODUCER);
  pdf.setLanguage('en-AU');
  pdf.setCreationDate(created);
  pdf.setModificationDate(created);

  /** Pages copied, by document index; undefined when the document adds no pages. */
  const copied: (number | undefined)[] = [];
  const imagesMissing: string[] = [];
  for (const [index, document] of input.documents.entries()) {
    if (!document.imageAvailable) continue;
    const bytes = await input.images(document.documentNumber);
    if (bytes === undefined) {
      imagesMissing.push(document.documentNumber);
      continue;
    }
    // One source at a time, dropped after copying: copyPages deep-copies its objects (stream
    // bytes included) into `pdf`, so nothing keeps the parsed source alive. Fastest: no setTimeout
    // yield every 100 objects (the default), which a function compiling one order has no use for.
    let source: PDFDocument;
    try {
      source = await PDFDocument.load(bytes, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false });
    } catch (cause) {
      const message = `Order ${input.orderId}: the images of document ${document.documentNumber} are not a readable PDF`;
      throw new Error(message, { cause });
    }
    const pages = await pdf.copyPages(source, source.getPageIndices());
    for (const page of pages) pdf.addPage(page);
    copied[index] = pages.length;
  }

  const coverPages = await drawCover(pdf, input, created, copied);
  const bytes = await pdf.save({ useObjectStreams: true, objectsPerTick: Number.POSITIVE_INFINITY });
  return { bytes, pageCount: pdf.getPageCount(), coverPages, imagesMissing };
}

interface Placed {
  y: number;
  draw(page: PDFPage, y: number): void;
}

/**
 * Lays the cover out first, then draws it: the page numbers in the table and the footers depend on
 * how many cover pages there turn out to be.
 */
async function drawCover(
  pdf: PDFDocument,
  input: OrderPdfInput,
  created: Date,
  copied: readonly (number | undefined)[],
) {
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const text = winAnsi(new Set(regular.getCharacterSet()));
  // pdf-lib adds a font resource (with a random name) to the page every time a font is set, and
  // twice per drawText given a `font` option: so the font is set only when it changes.
  const current = new Map<PDFPage, PDFFont>();
  const write = (
    page: PDFPage,
    value: string,
    options: { x: number; y: number; size: number; font: PDFFont; color?: typeof GREY },
  ) => {
    if (current.get(page) !== options.font) {
      page.setFont(options.font);
      current.set(page, options.font);
    }
    page.drawText(value, { x: options.x, y: options.y, size: options.size, color: options.color ?? BLACK });
  };
  const layout: Placed[][] = [[]];
  let y = TOP;
  let onNewPage: (() => void) | undefined;
  /** Places an item `height` high, on a new page unless it and `keep` more fit on this one. */
  const place = (height: number, draw: Placed['draw'], keep = 0) => {
    if (y - height - keep < BOTTOM && (layout.at(-1)?.length ?? 0) > 0) {
      layout.push([]);
      y = TOP;
      onNewPage?.();
    }
    layout.at(-1)?.push({ y, draw });
    y -= height;
  };
  const gap = (height: number) => {
    y -= height;
  };
  const paragraph = (
    value: string,
    font: PDFFont,
    size: number,
    options: { colour?: typeof GREY; bullet?: boolean } = {},
  ) => {
    const indent = options.bullet ? 12 : 0;
    wrap(text(value), font, size, CONTENT_WIDTH - indent).forEach((line, i) => {
      place(size * 1.35, (page, top) => {
        if (options.bullet && i === 0) write(page, '\u2022', { x: MARGIN + 2, y: top - size, size, font });
        write(page, line, {
          x: MARGIN + indent,
          y: top - size,
          size,
          font,
          color: options.colour ?? BLACK,
        });
      });
    });
  };

  paragraph(input.title, bold, 18);
  gap(4);
  paragraph(`Order ${input.orderId}`, regular, 10, { colour: GREY });
  paragraph(`Created ${formatDate(created)}`, regular, 10, { colour: GREY });
  gap(14);
  if (input.company) {
    paragraph(input.company.name, bold, 13);
    paragraph(input.company.formatted, regular, 11);
  } else {
    paragraph('Several records', bold, 13);
  }
  gap(14);

  /** Known once laid out; the rows' page numbers are only drawn then. */
  let coverPages = 0;
  let nextPage = 0;
  const rows = input.documents.map((document, index) => {
    const pages = copied[index];
    const start = nextPage + 1;
    nextPage += pages ?? 0;
    return { document, index, pages, start };
  });
  const unavailable = rows.filter((row) => row.pages === undefined).length;
  paragraph(
    `${count(rows.length, 'document')}: ${count(nextPage, 'page')} of images` +
      (unavailable > 0 ? `; ${unavailable} image${unavailable === 1 ? '' : 's'} unavailable` : ''),
    regular,
    10,
  );
  gap(8);

  const header = () =>
    place(
      ROW_HEIGHT + 4,
      (page, top) => {
        for (const column of COLUMNS) {
          write(page, column.header, {
            x: MARGIN + column.x,
            y: top - ROW_SIZE - 1,
            size: ROW_SIZE,
            font: bold,
          });
        }
        page.drawLine({
          start: { x: MARGIN, y: top - ROW_HEIGHT - 1 },
          end: { x: MARGIN + CONTENT_WIDTH, y: top - ROW_HEIGHT - 1 },
          thickness: 0.6,
        });
      },
      ROW_HEIGHT,
    );
  header();
  onNewPage = header;
  for (const row of rows) {
    const { document } = row;
    const ordered = document.pages
      ? `${document.pageCount} (pp. ${document.pages.from}\u2013${document.pages.to})`
      : String(document.pageCount);
    place(ROW_HEIGHT, (page, top) => {
      if (row.index % 2 === 1) {
        page.drawRectangle({
          x: MARGIN,
          y: top - ROW_HEIGHT,
          width: CONTENT_WIDTH,
          height: ROW_HEIGHT,
          color: SHADE,
        });
      }
      const where =
        row.pages === undefined
          ? 'image unavailable'
          : row.pages === 0
            ? 'no pages'
            : pageRange(coverPages + row.start, coverPages + row.start + row.pages - 1);
      const cells = [String(row.index + 1), document.documentNumber, document.formCode, ordered, where];
      COLUMNS.forEach((column, i) => {
        write(page, truncate(text(cells[i] ?? ''), regular, ROW_SIZE, column.width - 6), {
          x: MARGIN + column.x,
          y: top - ROW_SIZE - 1,
          size: ROW_SIZE,
          font: regular,
          color: row.pages === undefined && i === 4 ? GREY : BLACK,
        });
      });
    });
  }
  if (rows.length === 0) paragraph('No documents.', regular, ROW_SIZE);
  onNewPage = undefined;

  if (input.notices.length > 0) {
    gap(16);
    // Kept with the first line of the first notice.
    place(16, (page, top) => write(page, 'Notices', { x: MARGIN, y: top - 11, size: 11, font: bold }), 14);
    for (const notice of input.notices) {
      paragraph(notice, regular, 9.5, { bullet: true });
      gap(3);
    }
  }

  coverPages = layout.length;
  const footer = text(`${input.title} ${input.orderId}`);
  layout.forEach((items, index) => {
    const page = pdf.insertPage(index, [PAGE_WIDTH, PAGE_HEIGHT]);
    for (const item of items) item.draw(page, item.y);
    const label = `Cover page ${index + 1} of ${layout.length}`;
    write(page, truncate(footer, regular, 8, CONTENT_WIDTH - 120), {
      x: MARGIN,
      y: MARGIN,
      size: 8,
      font: regular,
      color: GREY,
    });
    write(page, label, {
      x: MARGIN + CONTENT_WIDTH - regular.widthOfTextAtSize(label, 8),
      y: MARGIN,
      size: 8,
      font: regular,
      color: GREY,
    });
  });
  return layout.length;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const pageRange = (from: number, to: number) => (from === to ? `page ${from}` : `pages ${from}\u2013${to}`);
const formatDate = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Letters with no decomposition to a WinAnsi letter, and common punctuation outside WinAnsi. */
const FALLBACKS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŧ: 'T',
  ŧ: 't',
  Ŋ: 'N',
  ŋ: 'n',
  ĸ: 'k',
  '\u2010': '-',
  '\u2011': '-',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
};

/**
 * Text the standard fonts can encode (WinAnsi): pdf-lib throws on any other character, so a
 * company name in another script must not reach it. Accents outside WinAnsi are dropped
 * ('Ź' → 'Z'); anything else becomes '?'.
 */
export function winAnsi(charset: ReadonlySet<number>) {
  const encodable = (value: string) => [...value].every((c) => charset.has(c.codePointAt(0) ?? -1));
  return (value: string) => {
    let out = '';
    for (const c of value.replace(/\s+/gu, ' ').replace(/[\p{Cc}\p{Cf}]/gu, '')) {
      if (charset.has(c.codePointAt(0) ?? -1)) {
        out += c;
        continue;
      }
      const plain = FALLBACKS[c] ?? c.normalize('NFKD').replace(/\p{M}/gu, '');
      out += plain !== '' && encodable(plain) ? plain : '?';
    }
    return out;
  };
}

/** Greedy word wrap; a word wider than the line is broken wherever it must be. */
function wrap(value: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (rest.length > 1 && font.widthOfTextAtSize(rest, size) > width) {
      let n = rest.length - 1;
      while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/** The text, cut with an ellipsis if wider than `width`. */
function truncate(value: string, font: PDFFont, size: number, width: number) {
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  let n = value.length - 1;
  while (n > 0 && font.widthOfTextAtSize(`${value.slice(0, n)}\u2026`, size) > width) n--;
  return `${value.slice(0, n)}\u2026`;
}
