/**
 * Standard output for a server process, in batches: the lines of one turn of the event loop go
 * out in one write, so under load a write carries the lines of many requests instead of one
 * each. Order is kept, and a batch still pending is written when the process exits, on an
 * uncaught exception too; only a process killed outright (SIGKILL, a crash of Node itself) can
 * lose the lines of its last turn. (sonic-boom, pino's writer, reorders lines at exit when a
 * write is in flight, and writes one line at a time when synchronous.)
 */
export function batchedStdout(): (line: string) => void {
  let batch = '';
  const flush = () => {
    if (batch === '') return;
    // Synchronous for files and pipes: the batch is out before the next turn, or before exit.
    process.stdout.write(batch);
    batch = '';
  };
  process.on('exit', flush);
  return (line) => {
    if (batch === '') setImmediate(flush);
    batch += line;
  };
}
