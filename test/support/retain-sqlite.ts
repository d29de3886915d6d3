// better-sqlite3 12 aborts Node 24 when V8 collects one of its databases or statements while no
// JavaScript context is entered (a collection between tasks, as in a long test run). The server
// keeps its one database and its statements for its whole life; tests open and drop many. So,
// in every test worker, each database and statement is kept until the worker exits.
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
