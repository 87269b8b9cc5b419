import { atom } from 'nanostores';
import type { UserResource } from '../server/users/presenter.ts';
import { api, ApiError, signInAgain } from './api.ts';
import { readBootData } from './boot.ts';
import { t } from './i18n.ts';
import { showAlert } from './ui.ts';

export type User = UserResource['data'];
/** The signed-in user: from the app's document when it carries it, else from `loadUser`. */
export const $user = atom<User | null>(readBootData<User>('app-user'));

export async function loadUser(): Promise<User> {
  try {
    const res = await api.get<UserResource>('/api/user');
    $user.set(res.data);
    return res.data;
  } catch (error) {
    // SPEC §8: the app data answered 401 (the client already sends those to sign-in) or 403: the
    // user is signed out as far as this page knows, and signs in again.
    if (error instanceof ApiError && error.status === 403) signInAgain();
    throw error;
  }
}

/** Save state of one auto-saved field, for the "Saved" hint and field errors. */
export type SaveState = { status: 'idle' | 'saving' | 'saved' } | { status: 'error'; message: string };
export const $saveStates = atom<Record<string, SaveState>>({});

function setSaveState(field: string, state: SaveState): void {
  $saveStates.set({ ...$saveStates.get(), [field]: state });
}

const AUTO_SAVE_DEBOUNCE_MS = 150;
const timers = new Map<string, ReturnType<typeof setTimeout>>();

/**
 * Auto-save text (SPEC §7): POST /api/user/settings with { name, value, _method: 'patch' },
 * debounced by 150 ms per field. Empty or whitespace values are skipped unless `force` is set
 * (a required field is not blanked by a half-finished edit).
 */
export function autoSave(field: string, value: string, options: { force?: boolean } = {}): void {
  clearTimeout(timers.get(field));
  if (!options.force && value.trim() === '') {
    // A required field left blank keeps its saved value; say so instead of saving nothing silently.
    setSaveState(field, { status: 'error', message: t('profile.required_not_saved') });
    return;
  }
  timers.set(
    field,
    setTimeout(() => {
      timers.delete(field);
      void saveNow({ name: field, value }, field);
    }, AUTO_SAVE_DEBOUNCE_MS),
  );
}

/** Auto-save input (SPEC §7): the field name as key, e.g. { theme_mode: 'dark' }. */
export function saveSettings(values: Record<string, string>): Promise<boolean> {
  return saveNow(values, Object.keys(values)[0] ?? 'settings');
}

async function saveNow(body: Record<string, string>, field: string): Promise<boolean> {
  setSaveState(field, { status: 'saving' });
  try {
    const res = await api.patch<UserResource>('/api/user/settings', body);
    $user.set(res.data);
    setSaveState(field, { status: 'saved' });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) {
      setSaveState(field, { status: 'error', message: Object.values(error.errors)[0]?.[0] ?? error.message });
    } else {
      // SPEC §8: a failed save that is not a validation error shows the generic error popup.
      setSaveState(field, { status: 'idle' });
      if (!(error instanceof ApiError && error.status === 401)) showAlert({ title: t('popup_error.title'), message: t('popup_error.message') });
    }
    return false;
  }
}

/** Image update (SPEC §7): multipart POST with name, the file under that name, _method=PATCH. */
export async function uploadAvatar(file: File): Promise<void> {
  const form = new FormData();
  form.set('name', 'avatar');
  form.set('avatar', file);
  form.set('_method', 'PATCH');
  const res = await api.post<UserResource>('/api/user/settings', form);
  $user.set(res.data);
}
