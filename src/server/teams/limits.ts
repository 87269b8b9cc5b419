import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { teamMemberTotal } from '../billing/limits.ts';
import { getSettings } from '../settings/service.ts';
import { teamEmailsOf } from './queries.ts';

/** SPEC §3 `meta.limitations.max_team_members`: the limit, how much of it is used, and by which addresses. */
export interface TeamMemberLimit {
  total: number | null;
  use: number;
  meta: { allowed_emails: string[] };
}

/** The owner's member limit: their fixed plan's, else the instance setting; null (no limit) for the subscription types metered and none (SPEC §5). */
export async function teamMemberLimit(ctx: AppContext, owner: Pick<User, 'id'>): Promise<TeamMemberLimit> {
  const settings = await getSettings(ctx);
  const [emails, total] = await Promise.all([teamEmailsOf(ctx.db, owner.id, ctx.clock.now().toISOString()), teamMemberTotal(ctx, owner.id, settings)]);
  return { total, use: emails.length, meta: { allowed_emails: emails } };
}

/**
 * Refuses new addresses once the distinct invited plus member addresses reach the limit; an address
 * already among them is always fine. `adding` are the addresses of one call, checked together.
 */
export async function requireRoomFor(ctx: AppContext, owner: Pick<User, 'id'>, adding: string[]): Promise<void> {
  const limit = await teamMemberLimit(ctx, owner);
  if (limit.total === null) return;
  const known = new Set(limit.meta.allowed_emails);
  const fresh = new Set(adding.filter((e) => !known.has(e)));
  if (fresh.size && known.size + fresh.size > limit.total) {
    throw new AppError(403, `Your team folders may have at most ${limit.total} members and invited addresses.`, { code: 'max_team_members_reached' });
  }
}
