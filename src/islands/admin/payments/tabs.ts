/** The tabs of /admin/payments/:tab? (SPEC §2: billings and payments); no tab opens the first. */
export const PAYMENTS_TABS = ['billings', 'payments'] as const;
export type PaymentsTab = (typeof PAYMENTS_TABS)[number];

export function isPaymentsTab(value: string | undefined): value is PaymentsTab {
  return (PAYMENTS_TABS as readonly string[]).includes(value ?? '');
}
