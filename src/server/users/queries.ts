import type { Insertable, Updateable } from 'kysely';
import type { UsersTable } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';

export function findUserById(ctx: AppContext, id: string): Promise<User | undefined> {
  return ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Emails are stored lower-cased, so this lookup is case-insensitive. */
export function findUserByEmail(ctx: AppContext, email: string): Promise<User | undefined> {
  return ctx.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertUser(ctx: AppContext, user: Insertable<UsersTable>): Promise<void> {
  await ctx.db.insertInto('users').values(user).execute();
}

export async function updateUser(ctx: AppContext, id: string, patch: Updateable<UsersTable>): Promise<void> {
  await ctx.db
    .updateTable('users')
    .set({ ...patch, updated_at: ctx.clock.now().toISOString() })
    .where('id', '=', id)
    .execute();
}

export async function countAdmins(ctx: AppContext): Promise<number> {
  const row = await ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '=', 'admin').executeTakeFirstOrThrow();
  return Number(row.n);
}
