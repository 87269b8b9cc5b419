/** The ids a field's `aria-describedby` names: its error and its hint, when shown. */
export function describedBy(id: string, hint: string | undefined, error: string | undefined): string | undefined {
  return [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
}

/** A field's hint and error under it, with the ids `describedBy` names. */
export function FieldNotes({ id, hint, error, hintClassName = 'mt-1.5 text-sm text-muted' }: { id: string; hint?: string | undefined; error?: string | undefined; hintClassName?: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className={hintClassName}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </>
  );
}
