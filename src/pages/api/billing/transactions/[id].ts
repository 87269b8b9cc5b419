import { transactionFor } from '../../../../server/billing/ledger-views.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params }) => transactionFor(ctx, user, params.id),
});
