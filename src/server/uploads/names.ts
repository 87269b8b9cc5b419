import { validationError } from '../http/errors.ts';
import { checkName } from '../files/names.ts';

/**
 * Names that arrive with uploads: the file name and each folder of a folder upload's relative
 * path. The platform's name rules (no `/`, `\`, control characters, `.`/`..`, 255 bytes), and the
 * names Windows reserves for devices, which would make a downloaded tree unusable there.
 */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.[^.]*)?$/i;

export function checkUploadSegment(raw: string): { ok: true; name: string } | { ok: false; message: string } {
  const checked = checkName(raw);
  if (!checked.ok) return checked;
  if (WINDOWS_RESERVED.test(checked.name)) return { ok: false, message: `"${checked.name}" is a reserved name.` };
  return checked;
}

/** The file's name, checked; a 422 on `filename` when refused. */
export function uploadName(raw: string | null | undefined): string {
  const checked = checkUploadSegment(raw ?? '');
  if (!checked.ok) throw validationError({ filename: [checked.message] });
  return checked.name;
}

/**
 * The folders of a folder upload's relative path (`Photos/2024`, the file name not included), as
 * segments; empty for none. Absolute paths, empty segments, `.` and `..` and every refused name
 * are a 422 on `path`: nothing in it can steer a file outside the folder being uploaded to.
 */
export function relativeFolders(raw: string | null | undefined): string[] {
  if (raw === null || raw === undefined || raw === '') return [];
  const refuse = (message: string) => validationError({ path: [message] });
  if (raw.includes('\0')) throw refuse('The path must not contain control characters.');
  if (/^[/\\]/.test(raw) || /^[a-z]:/i.test(raw)) throw refuse('The path must be relative.');
  if (raw.length > 4096) throw refuse('The path is too long.');
  const segments = raw.split('/');
  if (segments.length > 64) throw refuse('The path is nested too deeply.');
  return segments.map((segment) => {
    const checked = checkUploadSegment(segment);
    if (!checked.ok) throw refuse(`${segment === '' ? 'The path has an empty folder name' : checked.message}`);
    return checked.name;
  });
}

/** The lower-cased extension of a name, without the dot; '' for none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
