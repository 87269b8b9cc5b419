import { api, markSigningOut } from './api.ts';
import { $loggingOut } from './ui.ts';

export const LOGOUT_NOTICE_DELAY_MS = 300;

/** Signs out; the "Logging Out / Wait a second" notice shows if it takes longer than 300 ms. */
export async function logout(): Promise<void> {
  markSigningOut();
  const timer = setTimeout(() => $loggingOut.set(true), LOGOUT_NOTICE_DELAY_MS);
  markSigningOut();
  try {
    await api.post('/logout');
  } finally {
    clearTimeout(timer);
    location.assign('/');
  }
}

/**
 * Notices a session that ended while the page was open (signed out elsewhere, expired, password
 * changed) when the tab becomes visible again: the API client sends a 401 to sign-in.
 */
export function watchSession(): () => void {
  const check = () => {
    if (document.visibilityState === 'visible') void api.get('/api/user').catch(() => undefined);
  };
  document.addEventListener('visibilitychange', check);
  return () => document.removeEventListener('visibilitychange', check);
}
