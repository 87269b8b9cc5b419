// contract: owned by PAY (a minimal page shell for LEDGER's branch; the merge keeps PAY's file, which renders BillingSections).
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { useT } from '../../../stores/i18n.ts';
import { SettingsNav } from '../SettingsNav.tsx';
import { BillingSections } from './BillingSections.tsx';

/** /user/settings/billing. */
export default function BillingScreen() {
  const t = useT();
  useTitle(t('billing_ledger.page_title'));
  return (
    <div>
      <PageHeader title={t('billing_ledger.page_title')} subtitle={t('billing_ledger.page_subtitle')} />
      <SettingsNav />
      <BillingSections />
    </div>
  );
}
