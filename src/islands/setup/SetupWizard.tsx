import { useEffect, useState } from 'react';
import { Check as CheckIcon } from 'lucide-react';
import { useStore } from '@nanostores/react';
import { $translations, loadTranslations, useT } from '../../stores/i18n.ts';
import { ApiError } from '../../stores/api.ts';
import { call, STEPS, type SetupState, type Step } from './api.ts';
import { TokenGate } from './TokenGate.tsx';
import { AdminSetupStep, AppSetupStep, DatabaseStep, EnvironmentStep, PurchaseCodeStep, StatusCheckStep, type StepProps } from './steps.tsx';

const STEP_VIEWS: Record<Step, (props: StepProps) => React.ReactNode> = {
  'status-check': StatusCheckStep,
  'purchase-code': PurchaseCodeStep,
  database: DatabaseStep,
  environment: EnvironmentStep,
  'app-setup': AppSetupStep,
  'admin-setup': AdminSetupStep,
};

function stepFromPath(pathname: string): Step | null {
  const match = /^\/setup-wizard\/([a-z-]+)\/?$/.exec(pathname);
  return match && (STEPS as readonly string[]).includes(match[1]!) ? (match[1] as Step) : null;
}

/** SPEC §2 SetupWizard: /install and its six children, one step at a time, resumable after a reload. */
export default function SetupWizard({ authorized: initiallyAuthorized, locale }: { authorized: boolean; locale: string }) {
  const t = useT();
  const catalogue = useStore($translations);
  const [authorized, setAuthorized] = useState(initiallyAuthorized);
  const [state, setState] = useState<SetupState | null>(null);
  const [step, setStep] = useState<Step | null>(() => stepFromPath(location.pathname));
  const [loadError, setLoadError] = useState('');

  useEffect(() => {
    void loadTranslations(locale);
  }, [locale]);

  useEffect(() => {
    const onPop = () => setStep(stepFromPath(location.pathname));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    if (!authorized) return;
    call<{ data: SetupState }>('GET', 'state')
      .then(({ data }) => {
        setState(data);
        // A step not reached yet (or /install itself) opens the first unfinished one.
        const wanted = stepFromPath(location.pathname);
        if (!wanted || STEPS.indexOf(wanted) > STEPS.indexOf(data.next)) go(data.next, true);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) setAuthorized(false);
        else setLoadError(error instanceof Error ? error.message : String(error));
      });
  }, [authorized]);

  function go(next: Step, replace = false) {
    const url = `/setup-wizard/${next}`;
    if (replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    setStep(next);
    window.scrollTo({ top: 0 });
  }

  const saved = (next: SetupState) => {
    setState(next);
    const i = STEPS.indexOf(step!);
    if (i < STEPS.length - 1) go(STEPS[i + 1]!);
  };

  const spinner = <div className="flex justify-center py-16" role="status"><span className="size-8 animate-spin rounded-full border-[3px] border-border border-t-brand" /></div>;
  if (!catalogue) return spinner;
  if (!authorized) return <Frame t={t}><TokenGate onAccepted={() => setAuthorized(true)} /></Frame>;
  if (loadError) return <Frame t={t}><p className="notice-danger" role="alert">{loadError}</p></Frame>;
  if (!state || !step) return <Frame t={t}>{spinner}</Frame>;

  const View = STEP_VIEWS[step];
  const index = STEPS.indexOf(step);
  return (
    <Frame t={t}>
      <div className="grid gap-8 md:grid-cols-[220px_1fr]">
        <nav aria-label={t('setup.steps')} className="min-w-0">
          <ol className="flex gap-2 overflow-x-auto md:flex-col md:gap-1">
            {STEPS.map((s, i) => {
              const done = state.completed.includes(s);
              const reachable = i <= STEPS.indexOf(state.next) || done;
              const current = s === step;
              return (
                <li key={s} className="shrink-0">
                  <button
                    type="button"
                    disabled={!reachable}
                    onClick={() => go(s)}
                    aria-current={current ? 'step' : undefined}
                    className={`flex w-full items-center gap-2.5 rounded-control px-3 py-2 text-left text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50 ${current ? 'bg-brand-soft text-brand' : 'text-muted hover:bg-surface-2 hover:text-text'}`}
                  >
                    <span className={`grid size-6 shrink-0 place-items-center rounded-full text-xs ${done ? 'bg-success text-white' : current ? 'bg-brand text-on-brand' : 'bg-surface-2'}`}>
                      {done ? <CheckIcon size={14} aria-hidden /> : i + 1}
                    </span>
                    <span className="whitespace-nowrap">{t(`setup.step.${s.replaceAll('-', '_')}`)}</span>
                  </button>
                </li>
              );
            })}
          </ol>
        </nav>
        <section className="card min-w-0 p-6 sm:p-8" aria-labelledby="step-title">
          <p className="text-xs font-semibold uppercase tracking-wide text-muted">{t('setup.step_of', { n: index + 1, total: STEPS.length })}</p>
          <h1 id="step-title" className="mt-1 text-2xl font-bold tracking-tight">{t(`setup.step.${step.replaceAll('-', '_')}`)}</h1>
          <p className="mt-1.5 text-[15px] text-muted">{t(`setup.intro.${step.replaceAll('-', '_')}`)}</p>
          <div className="mt-6">
            <View key={step} state={state} onSaved={saved} onBack={index > 0 ? () => go(STEPS[index - 1]!) : undefined} />
          </div>
        </section>
      </div>
    </Frame>
  );
}

function Frame({ t, children }: { t: ReturnType<typeof useT>; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <header className="mb-8 flex items-center gap-3">
        <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="9" fill="var(--brand)" />
          <path d="M10 21.5h12.2a4.3 4.3 0 0 0 .6-8.56A6 6 0 0 0 11.3 14a3.8 3.8 0 0 0-1.3 7.5Z" fill="var(--on-brand)" />
        </svg>
        <span className="text-lg font-bold tracking-tight">{t('setup.title')}</span>
      </header>
      <main id="main">{children}</main>
    </div>
  );
}
