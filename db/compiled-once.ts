import { createQueryId, type Compilable, type CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A statement of fixed shape, built and compiled once per dialect and then run with new values.
 *
 * Kysely builds a query's operation tree and compiles it to SQL at every execution: 20–40 µs a
 * statement, about a tenth of the CPU of a small upload, which runs a dozen of them. Here `build`
 * is called once, with a placeholder standing for each argument, and each placeholder is found
 * again among the compiled parameters; later calls only put their values in those places.
 *
 * So `build` must give the same SQL whatever the values: it may only pass its arguments on as
 * values (no `if (arg)`, no list whose length varies, no `undefined` that drops a column). A
 * placeholder that does not come out as a parameter (inlined, or looked at) is refused at the
 * first call. With a Kysely plugin (none here) every call is built as usual.
 */
export function compiledOnce<A extends unknown[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>): (db: Kysely<Database>, ...args: A) => Promise<QueryResult<R>> {
  // Per dialect (its adapter object is shared by the database handle and its transactions).
  const shapes = new WeakMap<object, Shape>();
  return async (db, ...args) => {
    const executor = db.getExecutor();
    if (executor.plugins.length) return db.executeQuery(build(db, ...args));
    let shape = shapes.get(executor.adapter);
    if (!shape) {
      shape = compileShape(db, build, args.length);
      shapes.set(executor.adapter, shape);
    }
    const parameters = shape.slots.map((slot) => (slot.arg === null ? slot.value : args[slot.arg]));
    const compiled: CompiledQuery<R> = { sql: shape.sql, parameters, query: shape.query, queryId: createQueryId() };
    return db.executeQuery(compiled);
  };
}

interface Shape {
  sql: string;
  query: CompiledQuery['query'];
  /** Each parameter: an argument's value (its index), or a value the shape itself holds. */
  slots: { arg: number | null; value: unknown }[];
}

const MARK = '\u0000compiled-once:';

function compileShape<A extends unknown[], R>(db: Kysely<Database>, build: (db: Kysely<Database>, ...args: A) => Compilable<R>, arity: number): Shape {
  const marks = Array.from({ length: arity }, (_, i) => `${MARK}${i}\u0000`);
  const compiled = build(db, ...(marks as unknown as A)).compile();
  if (compiled.sql.includes(MARK)) throw new Error(`compiledOnce: an argument was written into the SQL, not passed as a value: ${compiled.sql}`);
  const slots = compiled.parameters.map((value) => {
    const arg = typeof value === 'string' ? marks.indexOf(value) : -1;
    return arg >= 0 ? { arg, value: undefined } : { arg: null, value };
  });
  const missing = marks.findIndex((_, i) => !slots.some((slot) => slot.arg === i));
  if (missing >= 0) throw new Error(`compiledOnce: argument ${missing} is not a parameter of ${compiled.sql}`);
  return { sql: compiled.sql, query: compiled.query, slots };
}
