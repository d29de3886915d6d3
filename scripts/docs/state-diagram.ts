// A status's `x-transitions` drawn as a state diagram, an SVG inlined as a `data:` image in the
// status schema's description on the docs page (a picture works offline and needs no script; as
// an image, its markup stays out of the page's search index and snippets): each state a box,
// in the enum's order, each allowed change an arrow (forward ones above the boxes, backward ones
// below), a final state (one with no way out) drawn with a double border.

const BOX = { width: 112, height: 34, gap: 56 };
const MARGIN = { x: 12, y: 16 };
/** How high an arc rises per box it spans. */
const RISE = 22;

/** The diagram as an `<img>` of one line, whose `alt` says every change (Markdown keeps it whole). */
export function stateDiagramImage(name: string, states: string[], transitions: Record<string, string[]>): string {
  const { svg, label } = stateDiagram(name, states, transitions);
  const data = btoa(String.fromCodePoint(...new TextEncoder().encode(svg)));
  return `<img alt="${escapeXml(label)}" src="data:image/svg+xml;base64,${data}">`;
}

/** The diagram of `states` and `transitions` as SVG markup, and a sentence saying what it shows. */
function stateDiagram(
  name: string,
  states: string[],
  transitions: Record<string, string[]>,
): { svg: string; label: string } {
  const changes = states.flatMap((from) =>
    (transitions[from] ?? []).filter((to) => states.includes(to)).map((to) => ({ from, to })),
  );
  const span = ({ from, to }: { from: string; to: string }) => Math.abs(states.indexOf(to) - states.indexOf(from));
  const deepest = Math.max(1, ...changes.map(span));
  const top = MARGIN.y + deepest * RISE;
  const width = MARGIN.x * 2 + states.length * BOX.width + (states.length - 1) * BOX.gap;
  const height = top + BOX.height + deepest * RISE + MARGIN.y;
  const left = (index: number) => MARGIN.x + index * (BOX.width + BOX.gap);
  const centre = (state: string) => left(states.indexOf(state)) + BOX.width / 2;

  const boxes = states.map((state, index) => {
    const final = (transitions[state] ?? []).length === 0;
    const inner = final
      ? `<rect x="${left(index) + 3}" y="${top + 3}" width="${BOX.width - 6}" height="${BOX.height - 6}" rx="4" fill="none" stroke="currentColor"/>`
      : '';
    return (
      `<rect x="${left(index)}" y="${top}" width="${BOX.width}" height="${BOX.height}" rx="6" fill="none" stroke="currentColor"/>${inner}` +
      `<text x="${left(index) + BOX.width / 2}" y="${top + BOX.height / 2 + 5}" text-anchor="middle">${escapeXml(state)}</text>`
    );
  });
  const arrows = changes.map((change) => {
    const forward = states.indexOf(change.to) > states.indexOf(change.from);
    // Forward arcs leave and arrive on the top edge, backward ones on the bottom edge, a little
    // off centre so that the two directions between a pair never share a line.
    // A longer arc leaves and arrives further off centre, so arcs from one state stay apart.
    const offset = (forward ? 1 : -1) * (2 + 6 * span(change));
    const y = forward ? top : top + BOX.height;
    const peak = forward ? y - span(change) * RISE : y + span(change) * RISE;
    const x1 = centre(change.from) + offset;
    const x2 = centre(change.to) - offset;
    // The arrowhead, drawn rather than a marker: a marker's id would repeat wherever the page shows the schema.
    const back = forward ? -9 : 9;
    const head = `${x2 - 5},${y + back} ${x2 + 5},${y + back} ${x2},${y}`;
    return `<g><title>${escapeXml(change.from)} → ${escapeXml(change.to)}</title><path d="M ${x1} ${y} C ${x1} ${peak}, ${x2} ${peak}, ${x2} ${y + back}" fill="none" stroke="currentColor"/><polygon points="${head}" fill="currentColor"/></g>`;
  });
  const label = `State diagram of ${name}: ${
    changes.map(({ from, to }) => `${from} → ${to}`).join(', ') || 'no change allowed'
  }; ${states.filter((state) => (transitions[state] ?? []).length === 0).join(', ') || 'no state'} final.`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="14" color="#333">` +
    `<title>${escapeXml(label)}</title>${arrows.join('')}${boxes.join('')}</svg>`;
  return { svg, label };
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
