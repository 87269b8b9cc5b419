import { Dialog } from 'radix-ui';
import { useId, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { describedBy, FieldNotes } from '../../../components/FieldNotes.tsx';
import { FormField } from '../../../components/FormField.tsx';
import { ApiError, api } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { emptySecret, SecretField, secretChange } from './SecretField.tsx';
import { SwitchField } from './SwitchField.tsx';
import type { OidcIssuer } from '../../../server/admin/settings/oidc.ts';

export const OIDC_URL = '/api/admin/settings/oidc';

/** Adds an issuer (`issuer` null) or edits one; the id is fixed once made, the secret write-only. */
export function OidcIssuerDialog({ issuer, onClose, onSaved }: { issuer: OidcIssuer | null; onClose: () => void; onSaved: (saved: OidcIssuer) => void }) {
  const t = useT();
  const [draft, setDraft] = useState({
    id: issuer?.id ?? '',
    label: issuer?.label ?? '',
    issuer_url: issuer?.issuer_url ?? '',
    client_id: issuer?.client_id ?? '',
    client_secret: emptySecret(),
    enabled: issuer?.enabled ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const error = (field: string) => errors[field]?.[0];

  const submit = async (event: FormEvent) => {
    // The dialog is rendered (through a portal) inside the sign-in tab's form: its submit is its own.
    event.preventDefault();
    event.stopPropagation();
    setBusy(true);
    setErrors({});
    const body = { label: draft.label, issuer_url: draft.issuer_url, client_id: draft.client_id, client_secret: secretChange(draft.client_secret), enabled: draft.enabled };
    try {
      const res = issuer ? await api.patch<{ data: OidcIssuer }>(`${OIDC_URL}/${issuer.id}`, body) : await api.post<{ data: OidcIssuer }>(OIDC_URL, { ...body, id: draft.id });
      toast('success', t('oidc.saved', { label: res.data.label }));
      onSaved(res.data);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setErrors(err.errors);
      else toast('danger', err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const callback = `${window.location.origin}/api/oidc/${draft.id || '…'}/callback`;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-backdrop" />
        <Dialog.Content className="card fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto p-6 md:w-[520px]">
          <Dialog.Title className="text-xl font-bold tracking-tight">{issuer ? t('oidc.edit_title', { label: issuer.label }) : t('oidc.add_title')}</Dialog.Title>
          <Dialog.Description className="sr-only">{t('oidc.section_text')}</Dialog.Description>
          <form className="mt-5" onSubmit={(e) => void submit(e)} noValidate>
            {!issuer && (
              <HintedField
                label={t('oidc.field_id')}
                hint={t('oidc.field_id_hint')}
                value={draft.id}
                onChange={(e) => setDraft({ ...draft, id: e.target.value.toLowerCase() })}
                error={error('id')}
                maxLength={32}
                spellCheck={false}
                autoComplete="off"
                required
              />
            )}
            <HintedField label={t('oidc.field_label')} hint={t('oidc.field_label_hint')} value={draft.label} onChange={(e) => setDraft({ ...draft, label: e.target.value })} error={error('label')} maxLength={60} required />
            <HintedField
              label={t('oidc.field_issuer_url')}
              hint={t('oidc.field_issuer_url_hint')}
              type="url"
              value={draft.issuer_url}
              onChange={(e) => setDraft({ ...draft, issuer_url: e.target.value })}
              error={error('issuer_url')}
              maxLength={2048}
              spellCheck={false}
              autoComplete="off"
              placeholder="https://"
              required
            />
            <FormField label={t('oidc.field_client_id')} value={draft.client_id} onChange={(e) => setDraft({ ...draft, client_id: e.target.value })} error={error('client_id')} maxLength={255} spellCheck={false} autoComplete="off" required />
            <SecretField label={t('oidc.field_client_secret')} saved={issuer?.client_secret.set ?? false} draft={draft.client_secret} onChange={(client_secret) => setDraft({ ...draft, client_secret })} error={error('client_secret')} />
            <p className="mb-4 text-sm break-all text-muted">
              {t('oidc.redirect_url')}: <code className="rounded-md bg-surface-2 px-1.5 py-0.5 text-xs">{callback}</code>
            </p>
            <SwitchField label={t('oidc.field_enabled')} checked={draft.enabled} onChange={(enabled) => setDraft({ ...draft, enabled })} />
            <div className="mt-6 flex justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={onClose}>
                {t('oidc.cancel')}
              </button>
              <button type="submit" className="btn-primary" disabled={busy}>
                {t('oidc.save')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A labelled input with a hint under it, both named by its aria-describedby. */
function HintedField({ label, hint, error, ...input }: { label: string; hint: string; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="mb-4">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
