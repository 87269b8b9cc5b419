import type { APIRoute } from 'astro';
import { invoicePdf } from '../../server/billing/invoice-pdf.ts';
import { invoiceFor, presentInvoice } from '../../server/billing/ledger-views.ts';
import { isAppError } from '../../server/http/errors.ts';
import { getSettings } from '../../server/settings/service.ts';

/** /invoices/{id}.pdf: the invoice as a PDF download, for its own user or an admin; anyone else 404. */
export const GET: APIRoute = async ({ locals, params }) => {
  try {
    const invoice = presentInvoice(await invoiceFor(locals.ctx, locals.user, params.id));
    const bytes = await invoicePdf(invoice, (await getSettings(locals.ctx)).app_name);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    return new Response(body, {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Length': String(bytes.byteLength),
        'Content-Disposition': `attachment; filename="invoice-${invoice.attributes.number}.pdf"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch (error) {
    if (isAppError(error) && error.status === 404) return new Response('Not found.', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    throw error;
  }
};
