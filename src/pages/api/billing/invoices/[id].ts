import { invoiceFor, presentInvoice } from '../../../../server/billing/ledger-views.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: async ({ ctx, user, params }) => ({ data: presentInvoice(await invoiceFor(ctx, user, params.id)) }),
});
