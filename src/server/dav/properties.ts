import type { AppContext } from '../context.ts';
import type { Db } from '../files/queries.ts';
import { badRequest } from '../http/errors.ts';
import { checkWrite } from './conditions.ts';
import { requireWritableScope } from '../files/access.ts';
import { actorFor } from '../teams/actor.ts';
import { found, scopeOf, sendXml, smallBody, userOf, type Dav } from './request.ts';
import { hrefOf, multistatus, patchResponseXml, type DeadProp } from './xml.ts';
import { childElements, isDav, parseXmlTree, serializeContent } from './xml-tree.ts';

/** A property value is at most 64 KiB of XML, and an item has at most 200 dead properties. */
const MAX_VALUE = 64 * 1024;
const MAX_PROPS = 200;

/** The dead properties of the items, by item id. */
export async function deadProps(db: Db, itemIds: string[]): Promise<Map<string, DeadProp[]>> {
  const byItem = new Map<string, DeadProp[]>();
  if (!itemIds.length) return byItem;
  const rows = await db.selectFrom('dav_properties').select(['item_id', 'ns', 'name', 'value_xml']).where('item_id', 'in', itemIds).orderBy('ns').orderBy('name').execute();
  for (const { item_id, ...prop } of rows) byItem.set(item_id, [...(byItem.get(item_id) ?? []), prop]);
  return byItem;
}

/** A PUT that replaced a file: its dead properties stay with the path, on the new item. */
export async function moveDeadProps(db: Db, fromId: string, toId: string): Promise<void> {
  await db.updateTable('dav_properties').set({ item_id: toId }).where('item_id', '=', fromId).execute();
}

/** A COPY copies the dead properties too (RFC 4918 §9.8.2). */
export async function copyDeadProps(ctx: AppContext, fromId: string, toId: string): Promise<void> {
  const rows = await ctx.db.selectFrom('dav_properties').selectAll().where('item_id', '=', fromId).execute();
  if (rows.length) await ctx.db.insertInto('dav_properties').values(rows.map((r) => ({ ...r, item_id: toId, updated_at: ctx.clock.now().toISOString() }))).execute();
}

type Instruction = { op: 'set'; ns: string; name: string; value: string } | { op: 'remove'; ns: string; name: string };

/** A DAV:propertyupdate body: its set and remove instructions in document order; anything else is a 400. */
function parsePropertyUpdate(body: string): Instruction[] {
  const root = parseXmlTree(body, 'PROPPATCH');
  if (!isDav(root, 'propertyupdate')) throw badRequest('The PROPPATCH body must be a DAV:propertyupdate element.');
  const instructions: Instruction[] = [];
  for (const action of childElements(root)) {
    if (!isDav(action, 'set') && !isDav(action, 'remove')) continue;
    for (const prop of childElements(action).filter((e) => isDav(e, 'prop'))) {
      for (const p of childElements(prop)) {
        instructions.push(action.local === 'set' ? { op: 'set', ns: p.ns, name: p.local, value: serializeContent(p) } : { op: 'remove', ns: p.ns, name: p.local });
      }
    }
  }
  if (!instructions.length) throw badRequest('The PROPPATCH body sets or removes no property.');
  return instructions;
}

/**
 * PROPPATCH (RFC 4918 §9.2): dead properties of any namespace but DAV: are stored per item
 * (they move with it, a PUT keeps them, a COPY copies them). The instructions run in document
 * order and all or none: a DAV: property (live, protected) is 403, a value over 64 KiB or past
 * 200 properties 507, and then every other one is 424 Failed Dependency and nothing changes.
 * The home folder, `Team folders` and a team folder itself have no dead properties (403).
 */
export async function proppatch(dav: Dav): Promise<void> {
  const located = await found(dav);
  const { item } = located;
  await checkWrite(scopeOf(dav), [{ segments: dav.segments, tree: false }]);
  // In a team folder: a member who may change it (403 for a read-only member).
  if (item) requireWritableScope(await actorFor(dav.ctx, userOf(dav), [item.id]));
  const fixed = item === null || located.teamRoot;
  const instructions = parsePropertyUpdate(await smallBody(dav.req));
  const existing = item ? ((await deadProps(dav.ctx.db, [item.id])).get(item.id) ?? []) : [];
  const names = new Set(existing.map((p) => `${p.ns} ${p.name}`));
  const failures = new Map<Instruction, string>();
  for (const ins of instructions) {
    if (fixed || ins.ns === 'DAV:') failures.set(ins, '403 Forbidden');
    else if (ins.op === 'set' && Buffer.byteLength(ins.value) > MAX_VALUE) failures.set(ins, '507 Insufficient Storage');
    else if (ins.op === 'set') names.add(`${ins.ns} ${ins.name}`);
    else names.delete(`${ins.ns} ${ins.name}`);
  }
  if (!failures.size && names.size > MAX_PROPS) for (const ins of instructions) if (ins.op === 'set') failures.set(ins, '507 Insufficient Storage');
  if (!failures.size && item && !fixed) {
    const at = dav.ctx.clock.now().toISOString();
    await dav.ctx.db.transaction().execute(async (tx) => {
      for (const ins of instructions) {
        await tx.deleteFrom('dav_properties').where('item_id', '=', item.id).where('ns', '=', ins.ns).where('name', '=', ins.name).execute();
        if (ins.op === 'set') await tx.insertInto('dav_properties').values({ item_id: item.id, ns: ins.ns, name: ins.name, value_xml: ins.value, updated_at: at }).execute();
      }
    });
  }
  const seen = new Set<string>();
  const results = instructions
    .filter((ins) => !seen.has(`${ins.ns} ${ins.name}`) && seen.add(`${ins.ns} ${ins.name}`))
    .map((ins) => ({ ns: ins.ns, name: ins.name, status: failures.get(ins) ?? (failures.size ? '424 Failed Dependency' : '200 OK') }));
  sendXml(dav.res, 207, multistatus([patchResponseXml(hrefOf(dav.segments, item === null || item.type === 'folder'), results)]));
}
