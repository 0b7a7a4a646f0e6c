/**
 * The page images of a lodged document, as the sandbox registry and the registry simulator hand
 * them out: one A4 page per page number, drawn like a scan of a paper register form (a header
 * with the document number, form code and "page i of n", labelled boxes, ruled lines, a footer).
 *
 * Everything a document's pages share is one form XObject drawn by every page, and every page
 * shares one resource dictionary and the one embedded standard font, so a page costs only a few
 * bytes of its own: 500 pages render in a fraction of a second.
 */
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

export interface DocumentImagesRequest {
  documentNumber: string;
  formCode: string;
  /** First and last page to draw, from 1 to `totalPages`, both included. */
  from: number;
  to: number;
  /** Pages of the whole document (the "of n" of each page). */
  totalPages: number;
}

const WIDTH = 595.28;
const HEIGHT = 841.89;
const MARGIN = 40;
const RIGHT = WIDTH - MARGIN;
/** Courier glyphs are all 600/1000 em wide, so text can be right-aligned without measuring. */
const COURIER_ADVANCE = 0.6;

/** A PDF literal string: printable ASCII only (the standard font's encoding), specials escaped. */
const literal = (text: string): string =>
  `(${text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)})`;

const fixed = (value: number): string => String(Math.round(value * 10_000) / 10_000);

const textAt = (x: number, y: number, size: number, text: string): string =>
  `BT /F1 ${size} Tf ${fixed(x)} ${fixed(y)} Td ${literal(text)} Tj ET`;

const rightAligned = (y: number, size: number, text: string): string =>
  textAt(RIGHT - text.length * size * COURIER_ADVANCE, y, size, text);

const box = (x: number, y: number, width: number, height: number): string =>
  `${fixed(x)} ${fixed(y)} ${fixed(width)} ${fixed(height)} re S`;

/** What every page of the document shows: the blank form with the document's own details. */
function formOperators(documentNumber: string, formCode: string): string {
  const lines: string[] = [
    // Scanned paper is never quite white.
    `0.97 0.96 0.92 rg 0 0 ${WIDTH} ${HEIGHT} re f`,
    '0.1 0.1 0.1 rg 0.15 G 1.2 w',
    box(28, 28, WIDTH - 56, HEIGHT - 56),
    box(28, 756, WIDTH - 56, 58),
    textAt(MARGIN, 792, 13, 'NATIONAL COMPANY REGISTER'),
    textAt(MARGIN, 774, 8, 'DOCUMENT IMAGE - COPY OF A LODGED FORM'),
    rightAligned(790, 15, `FORM ${formCode}`),
    '0.8 w',
    box(MARGIN, 712, 300, 30),
    textAt(MARGIN + 8, 723, 11, `DOCUMENT NO. ${documentNumber}`),
    box(350, 712, RIGHT - 350, 30),
    textAt(358, 730, 6, 'FOR REGISTRY USE ONLY'),
    textAt(358, 718, 9, 'RECEIVED  PROCESSED'),
  ];
  const fields = [
    '1. NAME OF ORGANISATION',
    '2. REGISTERED NUMBER',
    '3. DATE OF LODGEMENT',
    '4. LODGING PARTY',
  ];
  fields.forEach((label, i) => {
    const x = i % 2 === 0 ? MARGIN : 305;
    const y = i < 2 ? 650 : 598;
    lines.push(box(x, y, 250, 40), textAt(x + 6, y + 30, 7, label));
  });
  lines.push(textAt(MARGIN, 572, 8, '5. PARTICULARS'), '0.62 G 0.4 w');
  for (let y = 556; y >= 160; y -= 18) lines.push(`${MARGIN} ${y} m ${RIGHT} ${y} l S`);
  lines.push(
    '0.15 G 0.8 w',
    box(MARGIN, 84, 230, 56),
    textAt(MARGIN + 6, 128, 7, 'SIGNATURE'),
    box(RIGHT - 160, 84, 160, 56),
    textAt(RIGHT - 154, 128, 7, 'CAPACITY'),
    `${MARGIN} 66 m ${RIGHT} 66 l S`,
    textAt(MARGIN, 50, 7, "Copy of a document held by the registry. Not valid without the registry's seal."),
  );
  return lines.join('\n');
}

/**
 * What one page adds: the form turned by a fraction of a degree (as a sheet lies in a scanner,
 * different on every page) and the page number at the top and in the footer.
 */
function pageOperators(documentNumber: string, page: number, totalPages: number): string {
  const degrees = (((page * 37) % 11) - 5) * 0.06;
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const cx = WIDTH / 2;
  const cy = HEIGHT / 2;
  const turn = [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy].map(fixed).join(' ');
  return [
    `q ${turn} cm /Form Do`,
    '0.1 0.1 0.1 rg',
    rightAligned(770, 10, `PAGE ${page} OF ${totalPages}`),
    rightAligned(50, 7, `${documentNumber}  ${page}/${totalPages}`),
    'Q',
  ].join('\n');
}

const isPageNumber = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1;

/** A PDF of pages `from` to `to` of the document. Throws a RangeError for pages it does not have. */
export async function renderDocumentImages(request: DocumentImagesRequest): Promise<Uint8Array> {
  const { documentNumber, formCode, from, to, totalPages } = request;
  if (!isPageNumber(totalPages) || !isPageNumber(from) || !isPageNumber(to) || from > to || to > totalPages) {
    throw new RangeError(
      `renderDocumentImages: pages ${from} to ${to} of a ${totalPages}-page document cannot be drawn`,
    );
  }
  // No creation or modification dates: the same request always gives the same bytes.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`Document ${documentNumber}, form ${formCode}, pages ${from} to ${to} of ${totalPages}`);
  pdf.setProducer('National company register: document images');
  const font = await pdf.embedFont(StandardFonts.Courier);
  const fonts = { F1: font.ref };
  const form = pdf.context.register(
    pdf.context.flateStream(formOperators(documentNumber, formCode), {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, WIDTH, HEIGHT],
      Resources: { Font: fonts },
    }),
  );
  const resources = pdf.context.register(pdf.context.obj({ Font: fonts, XObject: { Form: form } }));
  for (let number = from; number <= to; number++) {
    const page = pdf.addPage([WIDTH, HEIGHT]);
    page.node.set(PDFName.of('Resources'), resources);
    page.node.set(
      PDFName.of('Contents'),
      pdf.context.register(pdf.context.stream(pageOperators(documentNumber, number, totalPages))),
    );
  }
  // By default pdf-lib pauses for the event loop every 50 objects, which doubles the time here.
  return pdf.save({ objectsPerTick: Number.POSITIVE_INFINITY });
}
