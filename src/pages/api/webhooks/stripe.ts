import { webhookRoute } from '../../../server/billing/webhook-route.ts';

export const { POST } = webhookRoute('stripe');
