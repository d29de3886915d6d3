// better-sqlite3 12 aborts Node 24 when V8 collects one of its databases or statements while no
// JavaScript context is entered (a collection between tasks, as in a long test run). The server
// keeps its one database and its statements for its whole life; tests open and drop many. So,
// in every test worker, each database and statement is kept until the worker exits.
import { createRequire } from 'node:module';
import Sqlite from 'better-sqlite3';

const RETAINED = Symbol.for('animal-store.retained-sqlite-objects');
// On the global object, so that objects outlive the module registry of the test file that made them.
const global = globalThis as typeof globalThis & { [RETAINED]?: Set<object> };
global[RETAINED] ??= new Set();
const retained = global[RETAINED];

type Method = (this: object, ...args: unknown[]) => unknown;
const prototype = Sqlite.prototype as unknown as Record<string, Method>;
for (const name of ['prepare', 'exec', 'pragma', 'close', 'transaction']) {
  const original = prototype[name];
  if (original === undefined || RETAINED in original) continue;
  const retaining: Method = function (this: object, ...args) {
    retained.add(this);
    const result = original.apply(this, args);
    if (typeof result === 'object' && result !== null) retained.add(result);
    return result;
  };
  Object.defineProperty(retaining, RETAINED, { value: true });
  prototype[name] = retaining;
}

// better-sqlite3 also prepares statements inside its own methods on the native database, out of
// reach of the methods above: `pragma` prepares one per call and drops it. So the native prepare
// keeps each native database and statement too. `cppdb` is the library's own key to the native
// database (one module instance, from require's cache).
const { cppdb } = createRequire(import.meta.url)('better-sqlite3/lib/util.js') as { cppdb: symbol };
const probe = new Sqlite(':memory:');
retained.add(probe);
const native = Object.getPrototypeOf((probe as unknown as Record<symbol, object>)[cppdb]) as Record<string, Method>;
const nativePrepare = native.prepare;
if (nativePrepare !== undefined && !(RETAINED in nativePrepare)) {
  const retainingPrepare: Method = function (this: object, ...args) {
    retained.add(this);
    const statement = nativePrepare.apply(this, args);
    if (typeof statement === 'object' && statement !== null) retained.add(statement);
    return statement;
  };
  Object.defineProperty(retainingPrepare, RETAINED, { value: true });
  native.prepare = retainingPrepare;
}
