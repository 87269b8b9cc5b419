import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireAdmin } from './guard.ts';
import { avatarUrls } from '../users/presenter.ts';
import pkg from '../../../package.json' with { type: 'json' };


/** Figures for the admin dashboard: counts and the newest accounts, straight from the database. */
export async function getDashboard(ctx: AppContext, user: User) {
  requireAdmin(user);
  const counts = await ctx.db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<string | number>().as('users'),
      eb.fn.sum<string | number | null>(eb.case().when('role', '=', 'admin').then(1).else(0).end()).as('admins'),
      eb.fn.sum<string | number | null>(eb.case().when('email_verified_at', 'is not', null).then(1).else(0).end()).as('verified'),
    ])
    .executeTakeFirstOrThrow();
  const newest = await ctx.db.selectFrom('users').select(['id', 'name', 'email', 'color', 'avatar_key', 'role', 'created_at']).orderBy('created_at', 'desc').limit(5).execute();
  return {
    data: {
      users: Number(counts.users),
      admins: Number(counts.admins ?? 0),
      verified: Number(counts.verified ?? 0),
      version: pkg.version,
      database: ctx.config.database.dialect,
      node: process.versions.node,
      newest: newest.map((u) => ({ id: u.id, name: u.name, email: u.email, color: u.color, role: u.role, created_at: u.created_at, avatar: avatarUrls(u) })),
    },
  };
}
