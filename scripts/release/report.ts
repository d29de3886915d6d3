// The gate's findings as people read them: one line per change with its class, what changed,
// the bundle's JSON pointer, the line under openapi/ to edit and the operations it reaches, each
// with its stability when it has one (`GET /widgets (experimental)`), then a verdict.
import type { AffectedOperation } from './changes.ts';
import type { GateResult, Judgement } from './gate.ts';
import type { SourceLine } from './source-lines.ts';

const CLASS_ORDER = ['breaking', 'non-breaking', 'documentation'];

/** Breaking changes first, then by place in the bundle. */
export function sortJudgements(judgements: readonly Judgement[]): Judgement[] {
  return [...judgements].sort(
    (a, b) => CLASS_ORDER.indexOf(a.class) - CLASS_ORDER.indexOf(b.class) || a.pointer.localeCompare(b.pointer),
  );
}

export function changeLine(judgement: Judgement, source?: SourceLine): string {
  const where = source ? `  ${source.file}:${source.line}` : '';
  const operations = judgement.operations.length ? `  [${judgement.operations.map(operationLabel).join(', ')}]` : '';
  const verdict = judgement.reason ? `  ${verdictLabel(judgement)}: ${judgement.reason}` : '';
  return `${judgement.class.padEnd(13)}  ${judgement.what}  ${judgement.pointer}${where}${operations}${verdict}`;
}

/** `GET /widgets (experimental)`: an operation with its stability, when it is not stable. */
function operationLabel({ name, stability }: AffectedOperation): string {
  return stability === 'stable' ? name : `${name} (${stability})`;
}

function verdictLabel({ verdict }: Judgement): string {
  switch (verdict) {
    case 'fails':
      return 'NOT ALLOWED';
    case 'warning':
      return 'WARNING';
    default:
      return 'allowed';
  }
}

export function summaryLine(result: GateResult): string {
  const count = (name: string) => result.judgements.filter((judgement) => judgement.class === name).length;
  const failing = result.judgements.filter((judgement) => judgement.verdict === 'fails').length;
  const totals = `${count('breaking')} breaking, ${count('non-breaking')} non-breaking, ${count('documentation')} documentation`;
  const bump = result.bump === 'none' ? 'no change' : `calls for a ${result.bump} version`;
  const outcome =
    failing === 0
      ? 'passes'
      : `fails: ${failing} breaking change${failing === 1 ? '' : 's'} the version does not allow`;
  return `${totals}; ${bump}; ${outcome}.`;
}
