import { CloudOff } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { t } from '../../stores/i18n.ts';
import { ChunkLoadError } from './screenLoader.ts';

/**
 * Catches a screen whose script could not be loaded (SPEC §8 chunk-load error): says which kind of
 * failure and which address, and offers a reload, instead of a blank area. Other errors pass on.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: ChunkLoadError | null; key: string }> {
  override state = { error: null as ChunkLoadError | null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    if (error instanceof ChunkLoadError) return { error };
    throw error;
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { error: ChunkLoadError | null; key: string }) {
    // Moving to another screen tries again.
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="card mx-auto mt-10 flex max-w-lg flex-col items-center px-6 py-12 text-center" role="alert" data-testid="chunk-load-error" data-kind={error.kind}>
        <span className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-danger/10 text-danger">
          <CloudOff className="size-7" aria-hidden />
        </span>
        <h2 className="text-lg font-bold">{t('app.chunk_failed_title')}</h2>
        <p className="mt-1 text-[15px] text-muted">{error.kind === 'timeout' ? t('app.chunk_timeout') : t('app.chunk_missing')}</p>
        <p className="mt-2 max-w-full font-mono text-xs break-all text-muted">
          {error.kind}: {error.address}
        </p>
        <button type="button" className="btn-primary mt-6" onClick={() => location.reload()}>
          {t('app.reload')}
        </button>
      </div>
    );
  }
}
