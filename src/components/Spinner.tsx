export function Spinner({ size = 32, label }: { size?: number; label: string }) {
  return (
    <span role="status" aria-live="polite" className="inline-flex items-center justify-center">
      <span style={{ width: size, height: size }} className="animate-spin rounded-full border-[3px] border-border border-t-brand" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export function FullPageSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}
