/**
 * The body rows of the Markdown table in `markdown` whose first header cell is `firstHeader`,
 * each keyed by its header cells: a documented table read by its structure, not its wording.
 * Throws when there is no such table, so a test cannot pass on an empty one.
 */
export function markdownTable(markdown: string, firstHeader: string): Array<Record<string, string>> {
  const tables: string[][][] = [];
  let current: string[][] | undefined;
  for (const line of markdown.split('\n').map((text) => text.trim())) {
    if (!line.startsWith('|')) {
      current = undefined;
      continue;
    }
    if (!current) {
      current = [];
      tables.push(current);
    }
    current.push(
      line
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  const table = tables.find(([header]) => header?.[0] === firstHeader);
  if (!table) throw new Error(`No Markdown table with the first column "${firstHeader}"`);
  // The table was found by its header row, so it has one.
  const [header = [], , ...rows] = table;
  return rows.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])));
}
