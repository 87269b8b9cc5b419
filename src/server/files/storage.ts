import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { getSettings } from '../settings/service.ts';
import { capacityFor } from '../billing/limits.ts';
import { categoryOf, CATEGORIES, type Category } from './categories.ts';
import { bytesByMimetype } from './queries.ts';

export { categoryOf, CATEGORIES, type Category };

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);

/**
 * Used bytes by category against the user's capacity (their own limit, else their fixed plan's, else the instance default;
 * 0 is no limit). The trash counts: its bytes are still stored.
 */
export async function storageUsage(ctx: AppContext, user: Pick<User, 'id' | 'storage_limit_bytes'>) {
  const [rows, settings] = await Promise.all([bytesByMimetype(ctx.db, user.id), getSettings(ctx)]);
  const used: Record<Category, number> = { images: 0, videos: 0, audios: 0, documents: 0, others: 0 };
  for (const row of rows) used[categoryOf(row.mimetype)] += Number(row.bytes ?? 0);
  const total = CATEGORIES.reduce((sum, c) => sum + used[c], 0);
  const capacity = await capacityFor(ctx, user, settings);
  return {
    data: {
      id: user.id,
      type: 'storage',
      attributes: { used: total, capacity, percentage: percent(total, capacity) },
      meta: Object.fromEntries(CATEGORIES.map((c) => [c, { used: used[c], percentage: percent(used[c], capacity) }])) as Record<Category, { used: number; percentage: number }>,
    },
  };
}
