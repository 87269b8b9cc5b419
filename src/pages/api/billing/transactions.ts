import { listOwnTransactions } from '../../../server/billing/ledger-views.ts';
import { route } from '../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, query }) => listOwnTransactions(ctx, user, query),
});
