import { KeyRound, Plus } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { SelectField } from '../../../components/SelectField.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import type { OidcIssuer } from '../../../server/admin/settings/oidc.ts';
import { ApiError, api } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { showAlert, toast } from '../../../stores/ui.ts';
import { OIDC_URL, OidcIssuerDialog } from './OidcIssuerDialog.tsx';

interface IssuerList {
  data: OidcIssuer[];
  meta: { only_issuer: string | null };
}

/**
 * The sign-in tab's "OpenID Connect" section: the configured identity providers (add, edit,
 * remove) and the "only this provider" mode. It saves on its own, apart from the tab's form.
 */
export default function OidcSection() {
  const t = useT();
  const [list, setList] = useState<IssuerList | null>(null);
  const [loadError, setLoadError] = useState('');
  const [editing, setEditing] = useState<OidcIssuer | 'new' | null>(null);

  const reload = () =>
    api
      .get<IssuerList>(OIDC_URL)
      .then(setList)
      .catch((err: unknown) => setLoadError(err instanceof Error ? err.message : String(err)));
  useEffect(() => void reload(), []);

  const failed = (err: unknown) => showAlert({ title: t('popup_error.title'), message: err instanceof ApiError ? err.message : t('popup_error.message') });
  const remove = async (issuer: OidcIssuer) => {
    try {
      await api.delete(`${OIDC_URL}/${issuer.id}`);
      toast('success', t('oidc.deleted', { label: issuer.label }));
      await reload();
    } catch (err) {
      failed(err);
    }
  };
  const setOnly = async (value: string) => {
    try {
      setList(await api.put<IssuerList>(OIDC_URL, { only_issuer: value || null }));
      toast('success', t('oidc.only_saved'));
    } catch (err) {
      failed(err);
    }
  };

  const enabled = list?.data.filter((i) => i.enabled) ?? [];
  return (
    <section className="card p-6" aria-labelledby="signin-oidc" data-testid="oidc-section">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <h2 id="signin-oidc" className="text-lg font-bold">
            {t('oidc.section_title')}
          </h2>
          <p className="mt-1 text-sm text-muted">{t('oidc.section_text')}</p>
        </div>
        {list && list.data.length > 0 && (
          <button type="button" className="btn-secondary" onClick={() => setEditing('new')}>
            <Plus className="size-4" aria-hidden />
            {t('oidc.add')}
          </button>
        )}
      </div>

      {loadError && <p className="notice-danger mt-5">{loadError}</p>}
      {!list && !loadError && (
        <div className="flex justify-center py-10">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {list && list.data.length === 0 && (
        <div className="mt-5 flex flex-col items-center rounded-xl border border-dashed border-border px-4 py-8 text-center">
          <span className="flex size-10 items-center justify-center rounded-xl bg-brand-soft text-brand" aria-hidden>
            <KeyRound className="size-5" />
          </span>
          <p className="mt-3 font-semibold">{t('oidc.empty_title')}</p>
          <p className="mt-1 text-sm text-muted">{t('oidc.empty_text')}</p>
          <button type="button" className="btn-primary mt-4" onClick={() => setEditing('new')}>
            <Plus className="size-4" aria-hidden />
            {t('oidc.add')}
          </button>
        </div>
      )}
      {list && list.data.length > 0 && (
        <>
          <ul className="mt-5 divide-y divide-border border-y border-border" aria-label={t('oidc.list_label')}>
            {list.data.map((issuer) => (
              <li key={issuer.id} className="flex flex-wrap items-center gap-x-4 gap-y-3 py-4" data-testid={`oidc-issuer-${issuer.id}`}>
                <div className="min-w-0 flex-1 basis-56">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold">{issuer.label}</span>
                    <code className="rounded-md bg-surface-2 px-1.5 py-0.5 text-xs text-muted">{issuer.id}</code>
                    <Badge tone={issuer.enabled ? 'success' : undefined}>{issuer.enabled ? t('oidc.status_on') : t('oidc.status_off')}</Badge>
                    {issuer.sign_in_only && <Badge tone="brand">{t('oidc.only_badge')}</Badge>}
                  </p>
                  <p className="mt-0.5 truncate text-sm text-muted">{issuer.issuer_url}</p>
                </div>
                <div className="flex gap-2">
                  <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => setEditing(issuer)} aria-label={t('oidc.edit_named', { label: issuer.label })}>
                    {t('oidc.edit')}
                  </button>
                  <DeleteButton issuer={issuer} onConfirm={() => void remove(issuer)} />
                </div>
              </li>
            ))}
          </ul>
          <div className="mt-5 max-w-md">
            <SelectField
              label={t('oidc.only_title')}
              value={list.meta.only_issuer ?? ''}
              onChange={(value) => void setOnly(value)}
              options={[{ value: '', label: t('oidc.only_off') }, ...enabled.map((i) => ({ value: i.id, label: t('oidc.only_option', { label: i.label }) }))]}
              hint={enabled.length ? t('oidc.only_text') : t('oidc.only_needs_enabled')}
            />
          </div>
        </>
      )}
      {editing && (
        <OidcIssuerDialog
          issuer={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void reload();
          }}
        />
      )}
    </section>
  );
}

function Badge({ children, tone }: { children: string; tone?: 'brand' | 'success' | undefined }) {
  const colours = tone === 'brand' ? 'bg-brand-soft text-brand' : tone === 'success' ? 'bg-success/10 text-success-text' : 'bg-surface-2 text-muted';
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${colours}`}>{children}</span>;
}

function DeleteButton({ issuer, onConfirm }: { issuer: OidcIssuer; onConfirm: () => void }) {
  const t = useT();
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm text-danger" aria-label={t('oidc.delete_named', { label: issuer.label })}>
          {t('oidc.delete')}
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-backdrop" />
        <AlertDialog.Content className="card fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 p-6 md:w-[440px]">
          <AlertDialog.Title className="text-xl font-bold tracking-tight">{t('oidc.delete_title', { label: issuer.label })}</AlertDialog.Title>
          <AlertDialog.Description className="mt-1.5 text-[15px] text-muted">{t('oidc.delete_text')}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className="btn-secondary">{t('oidc.cancel')}</AlertDialog.Cancel>
            <AlertDialog.Action className="btn-danger" onClick={onConfirm}>
              {t('oidc.delete')}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
