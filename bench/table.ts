// The bench's one table: every figure, its target and whether it was met.

export interface Row {
  figure: string;
  value: string;
  /** Empty for a reference figure (a baseline the targets are measured against). */
  target: string;
  /** MET, MISSED, empty for a reference figure, or why the figure could not be measured. */
  result: string;
}

/** A figure with a target. */
export function judged(figure: string, value: string, target: string, met: boolean): Row {
  return { figure, value, target, result: met ? 'MET' : 'MISSED' };
}

/** A figure shown for reference (a baseline, or a size the target does not judge). */
export function reference(figure: string, value: string): Row {
  return { figure, value, target: '', result: '' };
}

/** A figure left out on purpose, with why (a missing service, a flag); neither met nor missed. */
export function skipped(figure: string, target: string, why: string): Row {
  return { figure, value: '', target, result: `skipped: ${why}` };
}

/** A part of the bench that broke: counted as missed, so the run exits non-zero. */
export function failed(figure: string, error: unknown): Row {
  const message = error instanceof Error ? error.message : String(error);
  return { figure, value: '', target: '', result: `MISSED (failed: ${message.split('\n')[0]})` };
}

export function missedAny(rows: Row[]): boolean {
  return rows.some((row) => row.result.startsWith('MISSED'));
}

export function markdownTable(rows: Row[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    '| figure | measured | target | result |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${[row.figure, row.value, row.target, row.result].map(cell).join(' | ')} |`),
  ].join('\n');
}

export function ms(us: number): string {
  return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
}

export function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
