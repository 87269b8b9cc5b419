import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../http/errors.ts';
import { keysetPage, pageRequest } from '../http/keyset.ts';
import { requireAdmin } from './guard.ts';

export interface AuditEntry {
  /** `user.create`, `user.role`, `user.quota`, `user.restrictions`, `user.password`, `user.delete`, `page.update`, `setting.update`, `language.update`, … */
  action: string;
  target_type: 'user' | 'page' | 'setting' | 'language' | (string & {});
  target_id?: string | null;
  target_label?: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Field names whose values never reach the log: passwords, secrets, tokens, private keys. */
const SECRET_FIELD = /(password|secret|token|private|api_?key|client_key)/i;
export const REDACTED = '[redacted]';

/** A copy of `values` with every secret-looking field (at any depth) replaced by "[redacted]". */
export function redact(values: unknown): unknown {
  if (Array.isArray(values)) return values.map(redact);
  if (values === null || typeof values !== 'object') return values;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    out[key] = SECRET_FIELD.test(key) && value !== null && value !== '' && value !== undefined ? REDACTED : redact(value);
  }
  return out;
}

/**
 * Records one admin change. Pass the transaction that makes the change, so the change and its
 * record commit together or not at all.
 */
export async function recordAudit(ctx: AppContext, db: Kysely<Database>, actor: User, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: randomUUID(),
      actor_id: actor.id,
      actor_name: actor.name || actor.email,
      action: entry.action,
      target_type: entry.target_type,
      target_id: entry.target_id ?? null,
      target_label: entry.target_label ?? '',
      before: entry.before ? JSON.stringify(redact(entry.before)) : null,
      after: entry.after ? JSON.stringify(redact(entry.after)) : null,
      created_at: ctx.clock.now().toISOString(),
    })
    .execute();
}

const TARGET_TYPE = /^[a-z_]{1,32}$/;

/** The audit log, newest first, keyset-paged; filter by acting admin and by target. */
export async function listAudit(ctx: AppContext, user: User, query: URLSearchParams) {
  requireAdmin(user);
  const page = pageRequest(query, 2);
  const actor = query.get('actor');
  const targetType = query.get('target_type');
  const targetId = query.get('target_id');
  if (targetType && !TARGET_TYPE.test(targetType)) throw badRequest('The target type is not valid.');
  if ((actor && actor.length > 64) || (targetId && targetId.length > 255)) throw badRequest('The filter is too long.');
  let q = ctx.db.selectFrom('audit_log').selectAll();
  if (actor) q = q.where('actor_id', '=', actor);
  if (targetType) q = q.where('target_type', '=', targetType);
  if (targetId) q = q.where('target_id', '=', targetId);
  if (page.after) {
    const [createdAt, id] = page.after as [string, string];
    q = q.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
  return keysetPage(
    rows,
    page,
    (row) => [row.created_at, row.id],
    (row) => ({
      id: row.id,
      type: 'audit-entry',
      attributes: {
        actor: { id: row.actor_id, name: row.actor_name },
        action: row.action,
        target: { type: row.target_type, id: row.target_id, label: row.target_label },
        before: row.before ? (JSON.parse(row.before) as unknown) : null,
        after: row.after ? (JSON.parse(row.after) as unknown) : null,
        created_at: row.created_at,
      },
    }),
    { path: '/api/admin/audit', query },
  );
}
