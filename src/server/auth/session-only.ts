import { AppError } from '../http/errors.ts';

/**
 * For what an access token must never do for itself (mint or revoke tokens): only a browser
 * session may. A stolen token then cannot make itself a successor that outlives its revocation.
 */
export function requireSessionAuth(locals: { authMethod: 'cookie' | 'token' | null }, action: string): void {
  if (locals.authMethod === 'cookie') return;
  throw new AppError(403, `${action} needs a signed-in browser session; an access token cannot do it.`, { code: 'session_required' });
}
