// `specmatic test` (the jar of the npm package `specmatic`, run by Java) on the bundled contract as
// it is, against one base URL, and what it did, read from its console: each scenario's request,
// the answer and its verdict. Its JUnit and HTML reports stay in the report folder for a reader.
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadContract } from '../../contract/bundled.ts';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';

const JAR = join(REPOSITORY_ROOT, 'node_modules/specmatic/specmatic.jar');
const CONTRACT = join(REPOSITORY_ROOT, 'generated/openapi.yaml');

interface SpecmaticMessage {
  /** The request line's method and path, or the answer's status. */
  method?: string;
  path?: string;
  status?: number;
  /** Names in lower case. */
  headers: Record<string, string>;
  /** Parsed when JSON; undefined when empty. */
  body: unknown;
}

export interface SpecmaticScenario {
  /** As Specmatic names it: `PATCH /pets/(petId:PetId) -> 200 with the request from the example 'PetUpdated' …`. */
  name: string;
  passed: boolean;
  request: SpecmaticMessage;
  response: SpecmaticMessage;
}

export interface SpecmaticRun {
  scenarios: SpecmaticScenario[];
  /** Everything Specmatic printed, also kept as specmatic.log in the report folder. */
  output: string;
}

/**
 * Runs Specmatic's contract tests against `baseUrl` with `token` as the bearer credential (Specmatic
 * takes it from an environment variable named after the contract's security scheme) and writes its
 * reports under `reportDir` (emptied first).
 */
export async function runSpecmatic(baseUrl: string, token: string, reportDir: string): Promise<SpecmaticRun> {
  await rm(reportDir, { recursive: true, force: true });
  await mkdir(reportDir, { recursive: true });
  const schemes = Object.keys(loadContract().document.components?.securitySchemes ?? {});
  const credentials = Object.fromEntries(schemes.map((scheme) => [scheme, token]));
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      'java',
      ['-jar', JAR, 'test', CONTRACT, `--testBaseURL=${baseUrl}`, `--junitReportDir=${join(reportDir, 'junit')}`],
      // Its HTML report goes to build/reports/ under the working directory.
      { cwd: reportDir, env: { ...process.env, ...credentials }, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // A failed scenario exits non-zero; only a run that printed no summary failed to run.
        if (error && !/^Tests run: \d+/m.test(stdout)) reject(new Error(`specmatic test did not run: ${stderr}`));
        else resolve(stdout + stderr);
      },
    );
  });
  await writeFile(join(reportDir, 'specmatic.log'), output);
  return { scenarios: scenariosOf(output), output };
}

const REQUEST = /^ {2}Request to \S+ at /;
const RESPONSE = /^ {2}Response at /;
const VERDICT = /^Scenario: (.*) has (SUCCEEDED|FAILED)$/;

/** Each request Specmatic printed, with the answer after it and the verdict on the scenario after that. */
function scenariosOf(output: string): SpecmaticScenario[] {
  const scenarios: SpecmaticScenario[] = [];
  let block: string[] | undefined;
  let request: SpecmaticMessage | undefined;
  let response: SpecmaticMessage | undefined;
  for (const line of output.split('\n')) {
    if (REQUEST.test(line)) {
      block = [];
      request = undefined;
    } else if (RESPONSE.test(line) && block) {
      request = messageOf(block);
      block = [];
    } else if (VERDICT.test(line) && block && request) {
      response = messageOf(block);
      const [, name = '', verdict] = VERDICT.exec(line) ?? [];
      scenarios.push({ name, passed: verdict === 'SUCCEEDED', request, response });
      block = undefined;
    } else block?.push(line);
  }
  return scenarios;
}

/** A message as Specmatic prints it, indented by four: its first line, headers, a blank line, the body. */
function messageOf(lines: string[]): SpecmaticMessage {
  const indented = lines.map((line) => line.replace(/^ {4}/, ''));
  const blank = indented.findIndex((line) => line.trim() === '');
  const [first = '', ...headerLines] = indented.slice(0, blank < 0 ? indented.length : blank);
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const text =
    blank < 0
      ? ''
      : indented
          .slice(blank + 1)
          .join('\n')
          .trim();
  const status = /^(\d{3}) /.exec(first)?.[1];
  const [method, path] = first.split(' ');
  return {
    ...(status ? { status: Number(status) } : { method, path }),
    headers,
    body: text === '' ? undefined : parsed(text),
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
