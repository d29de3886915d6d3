import {
  type Config,
  getLineColLocation,
  lint,
  lintConfig,
  loadConfig,
  type NormalizedProblem,
  YamlParseError,
} from '@redocly/openapi-core';
import { type ContractLocations, displayPath } from './locations.ts';

/** One lint problem, located in the file a person has to edit. */
export interface Finding {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  /** Absolute path; absent only for failures that have no place in a file. */
  file?: string;
  line?: number;
  col?: number;
}

export type LintOutcome = { ok: true; config: Config } | { ok: false; findings: Finding[] };

/**
 * Lints the contract exactly as `redocly lint` does: the lint configuration itself at warning
 * level, then the document. The contract must be free of errors and of warnings alike.
 */
export async function lintContract(locations: ContractLocations): Promise<LintOutcome> {
  try {
    const config = await loadConfig({ configPath: locations.lintConfig });
    const problems = [
      ...(await lintConfig({ config, severity: 'warn' })),
      ...(await lint({ ref: locations.contract, config })),
    ].filter((problem) => !problem.ignored);
    if (problems.length > 0) return { ok: false, findings: sortFindings(problems.map(toFinding)) };
    return { ok: true, config };
  } catch (error) {
    return { ok: false, findings: [failureFinding('lint', error)] };
  }
}

export function toFinding(problem: NormalizedProblem): Finding {
  const location = problem.location[0];
  const finding: Finding = { ruleId: problem.ruleId, severity: problem.severity, message: problem.message };
  if (!location) return finding;
  const { start } = location.pointer === undefined ? location : getLineColLocation(location);
  return { ...finding, file: location.source.absoluteRef, line: start.line, col: start.col };
}

/** A step that threw instead of reporting problems: a YAML syntax error, a missing file, a crash. */
export function failureFinding(step: string, error: unknown): Finding {
  if (error instanceof YamlParseError) {
    return {
      ruleId: 'yaml-syntax',
      severity: 'error',
      message: error.message,
      file: error.source.absoluteRef,
      line: error.line,
      col: error.col,
    };
  }
  return { ruleId: step, severity: 'error', message: error instanceof Error ? error.message : String(error) };
}

export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.col ?? 0) - (b.col ?? 0) ||
      a.ruleId.localeCompare(b.ruleId),
  );
}

/** `file:line:col  severity  rule-id  message`, the form editors and terminals turn into links. */
export function formatFinding(locations: ContractLocations, finding: Finding): string {
  const place = finding.file
    ? `${displayPath(locations, finding.file)}:${finding.line ?? 1}:${finding.col ?? 1}`
    : '(no file)';
  return `${place}  ${finding.severity}  ${finding.ruleId}  ${finding.message}`;
}
