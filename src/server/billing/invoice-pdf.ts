import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';
import type { InvoiceData } from './ledger-views.ts';
import { formatMinor } from '../../components/billing/money.ts';

/** The standard PDF fonts speak WinAnsi only: anything else is shown as "?" rather than failing the download. */
function safe(font: PDFFont, text: string): string {
  return [...text]
    .map((c) => {
      try {
        font.encodeText(c);
        return c;
      } catch {
        return '?';
      }
    })
    .join('');
}

const detailLines = (details: Record<string, unknown>) =>
  ['company', 'name', 'email', 'address', 'city', 'postal_code', 'state', 'country', 'vat', 'vat_number', 'phone']
    .map((key) => details[key])
    .filter((v): v is string | number => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number')
    .map(String);

/** The invoice as a one-page A4 PDF (pdf-lib): the same content as the printable page. */
export async function invoicePdf(invoice: InvoiceData, appName: string): Promise<Uint8Array> {
  const a = invoice.attributes;
  const doc = await PDFDocument.create();
  doc.setTitle(`Invoice ${a.number}`);
  doc.setProducer(appName);
  const page = doc.addPage([595.28, 841.89]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const muted = rgb(0.4, 0.42, 0.47);
  let y = 790;
  const text = (value: string, x: number, size = 10, font = regular, color = rgb(0.1, 0.1, 0.12)) => page.drawText(safe(font, value), { x, y, size, font, color });
  const right = (value: string, xRight: number, size = 10, font = regular) => {
    const v = safe(font, value);
    page.drawText(v, { x: xRight - font.widthOfTextAtSize(v, size), y, size, font });
  };

  text('Invoice', 50, 24, bold);
  right(a.number, 545, 14, bold);
  y -= 22;
  right(`Issued ${a.issued_at.slice(0, 10)}`, 545, 10);
  y -= 14;
  if (a.period_start && a.period_end) right(`Period ${a.period_start.slice(0, 10)} - ${a.period_end.slice(0, 10)}`, 545, 10);
  y -= 14;
  right(a.status === 'paid' ? `Paid ${a.paid_at?.slice(0, 10) ?? ''}` : 'Unpaid', 545, 10, bold);

  y -= 30;
  const top = y;
  text('From', 50, 9, bold, muted);
  y -= 14;
  for (const line of detailLines(a.seller).length ? detailLines(a.seller) : [appName]) {
    text(line, 50);
    y -= 13;
  }
  y = top;
  text('Bill to', 300, 9, bold, muted);
  y -= 14;
  for (const line of detailLines(a.customer)) {
    text(line, 300);
    y -= 13;
  }
  y = Math.min(y, top - 14 - 13 * Math.max(detailLines(a.seller).length, 1)) - 30;

  text('Description', 50, 9, bold, muted);
  right('Quantity', 420, 9, bold);
  right('Amount', 545, 9, bold);
  y -= 8;
  page.drawLine({ start: { x: 50, y }, end: { x: 545, y }, thickness: 0.5, color: muted });
  y -= 16;
  for (const line of a.lines) {
    text(line.description, 50);
    right(`${line.quantity} ${line.unit}`, 420);
    right(formatMinor(line.amount_minor, a.currency, 'en'), 545);
    y -= 18;
  }
  page.drawLine({ start: { x: 300, y: y + 6 }, end: { x: 545, y: y + 6 }, thickness: 0.5, color: muted });
  y -= 12;
  text('Total', 300, 12, bold);
  right(formatMinor(a.total_minor, a.currency, 'en'), 545, 12, bold);
  return doc.save();
}
