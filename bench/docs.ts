// Row 7 of the bench: `wrk -c300 /docs/` against the server with the API measured beside it: the
// server's largest VmRSS meanwhile, and the API's p99 against its p99 alone a moment before. Judged
// as the issue measures it, from one address (which the docs' own per-address limit soon refuses);
// then for reference with each request from another X-Forwarded-For address, so that every one is
// a whole download: memory stays bounded, while the bandwidth is the machine's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleResidentMemory } from './proc.ts';
import { fillSqlite, sqliteKey } from './seed.ts';
import { answerOf, PATH, startServer, stop } from './support.ts';
import { int, judged, ms, type Row, reference } from './table.ts';
import { describeErrors, requestsPerSecond, wrk } from './wrk.ts';

const DOCS_CONNECTIONS = 300;
/** A few clients of the API, enough for a p99 without taking the CPU the downloads need. */
const API_CONNECTIONS = 10;
const MAX_RSS_BYTES = 250 * 1024 * 1024;
const MAX_API_P99_MS = 50;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export interface DocsOptions {
  seconds: number;
  log: (line: string) => void;
}

export async function docsRows({ seconds, log }: DocsOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-docs-'));
  const databasePath = join(dir, 'bench.db');
  const secret = await sqliteKey(databasePath);
  fillSqlite(databasePath, 100);
  const server = await startServer({
    DATABASE_PATH: databasePath,
    DATABASE_URL: '',
    REDIS_URL: '',
    TRUST_PROXY: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  });
  try {
    const api = { url: `${server.url}${PATH}`, headers: { Authorization: `Bearer ${secret}` } };
    await answerOf(server.url, { path: '/docs/' });
    await answerOf(server.url, { path: PATH, headers: api.headers });
    const alone = await wrk({ ...api, connections: API_CONNECTIONS, seconds });
    log(`  API alone: p99 ${ms(alone.p99Us)}`);

    const besideDocs = async (spreadAddresses: boolean) => {
      const memory = sampleResidentMemory(server.child.pid as number);
      const [docs, beside] = await Promise.all([
        // wrk sends no Accept-Encoding: every download is the whole page, the most a client can cost.
        wrk({ url: `${server.url}/docs/`, connections: DOCS_CONNECTIONS, seconds, spreadAddresses }),
        wrk({ ...api, connections: API_CONNECTIONS, seconds }),
      ]);
      const largest = memory.stop();
      log(
        `  docs${spreadAddresses ? ' from many addresses' : ''}: ${int(requestsPerSecond(docs))} req/s, ` +
          `answers >= 400 ${docs.status}, RSS ${mb(largest)}; API p99 ${ms(beside.p99Us)}`,
      );
      return { docs, beside, largest };
    };
    const load = `wrk -c${DOCS_CONNECTIONS} -d${seconds}s /docs/`;
    const one = await besideDocs(false);
    const many = await besideDocs(true);
    return [
      reference(`Docs: API p99 of GET ${PATH} alone (${API_CONNECTIONS} connections)`, ms(alone.p99Us)),
      judged(
        `Docs: the server's largest VmRSS during ${load}`,
        mb(one.largest),
        `< ${mb(MAX_RSS_BYTES)}`,
        one.largest < MAX_RSS_BYTES,
      ),
      judged(
        `Docs: API p99 of GET ${PATH} during ${load}`,
        `${ms(one.beside.p99Us)} (errors ${describeErrors(one.beside)})`,
        `< ${MAX_API_P99_MS} ms, no errors`,
        one.beside.p99Us / 1000 < MAX_API_P99_MS && describeErrors(one.beside) === '0',
      ),
      reference(
        `Docs: ${load} from a new address per request: downloads/s, largest VmRSS, API p99`,
        `${int(requestsPerSecond(many.docs))} (errors ${describeErrors(many.docs)}), ${mb(many.largest)}, ${ms(many.beside.p99Us)}`,
      ),
    ];
  } finally {
    await stop(server.child);
    rmSync(dir, { recursive: true, force: true });
  }
}
