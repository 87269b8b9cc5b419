import type { User } from '../auth/sessions.ts';
import { forbidden } from '../http/errors.ts';

/** The admin area's one permission rule, checked in the service layer by every admin call. */
export function requireAdmin(user: User): void {
  if (user.role !== 'admin') throw forbidden('Only administrators can do this.');
}
