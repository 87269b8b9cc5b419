import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/index.ts';
import { candidateName, checkName, MAX_NAME_BYTES, nameKey, nextFreeName } from '../../src/server/files/names.ts';

describe('checkName', () => {
  it.each([
    ['a right-to-left override', 'invoice\u202Etxt.exe'],
    ['a left-to-right embedding', 'a\u202Ab'],
    ['a pop directional formatting', 'a\u202Cb'],
    ['a first-strong isolate', 'a\u2068b'],
    ['a pop directional isolate', 'a\u2069b'],
    ['the Arabic letter mark', 'a\u061Cb'],
    ['a zero-width space', 'pay\u200Bpal.pdf'],
    ['a zero-width joiner outside a word or an emoji', 'invoice\u200D.pdf'],
    ['a zero-width non-joiner before an extension', 'pay\u200C.pdf'],
    ['a right-to-left mark', 'a\u200Fb'],
    ['a byte-order mark inside', 'a\uFEFFb'],
    ['a C0 control', 'a\u0007b'],
    ['DEL', 'a\u007Fb'],
    ['a C1 control', 'a\u0085b'],
    ['NUL', 'a\u0000b'],
  ])('refuses %s', (_label, name) => {
    const checked = checkName(name);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toMatch(/must not contain/);
  });

  it('keeps ordinary names from every script, emoji and combining marks', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const rainbow = '\u{1F3F3}\uFE0F\u200D\u{1F308}';
    const persian = 'می\u200Cخواهم.txt';
    for (const name of ['Rapport été.pdf', 'تقرير.pdf', 'レポート.txt', '🎉 party.png', 'cafe\u0301.txt', 'a b(1).tar.gz', `${family} photos`, `${rainbow} pride.jpg`, persian]) {
      expect(checkName(name)).toEqual({ ok: true, name: name.normalize('NFC') });
    }
  });
});

describe('free names', () => {
  it('tries the name, then counts on from its base, keeping the extension', () => {
    expect([0, 1, 2].map((n) => candidateName('report.pdf', true, n))).toEqual(['report.pdf', 'report (1).pdf', 'report (2).pdf']);
    expect(candidateName('report (3).pdf', true, 1)).toBe('report (1).pdf');
    expect(candidateName('photos.2024', false, 1)).toBe('photos.2024 (1)');
    expect(candidateName('.env', true, 1)).toBe('.env (1)');
  });

  it('skips taken names compared case-insensitively after NFC', () => {
    const taken = new Set(['café.txt', 'café (1).txt'].map(nameKey));
    expect(nextFreeName('CAFE\u0301.txt', true, (key) => taken.has(key))).toBe('CAFE\u0301 (2).txt');
  });

  it('keeps a long name within the byte limit, never splitting a character', () => {
    const name = `${'é'.repeat(200)}.txt`;
    const next = candidateName(name, true, 12);
    expect(Buffer.byteLength(next, 'utf8')).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(next.endsWith(' (12).txt')).toBe(true);
    expect(next.includes('\uFFFD')).toBe(false);
  });
});

describe('the SQLite statement cache', () => {
  it('reuses statements, also after a stream that was left early', async () => {
    const db = (await openDatabase({ dialect: 'sqlite', file: ':memory:' })) as unknown as Kysely<{ t: { a: number } }>;
    try {
      await db.schema.createTable('t').addColumn('a', 'integer').execute();
      await db.insertInto('t').values([{ a: 1 }, { a: 2 }, { a: 3 }]).execute();
      const query = () => db.selectFrom('t').select('a').orderBy('a');
      for await (const row of query().stream()) {
        expect(row.a).toBe(1);
        break;
      }
      expect(await query().execute()).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
      await db.insertInto('t').values({ a: 4 }).execute();
      expect(await query().execute()).toHaveLength(4);
    } finally {
      await db.destroy();
    }
  });

  it('tells a statement that is still being iterated from a free one', () => {
    const sqlite = new Database(':memory:');
    const statement = sqlite.prepare('select 1 union all select 2');
    const rows = statement.iterate();
    rows.next();
    expect(statement.busy).toBe(true);
    rows.return?.();
    expect(statement.busy).toBe(false);
    sqlite.close();
  });
});
