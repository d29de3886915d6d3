// `npm run fuzz` as other teams script it: against another API with `--spec` and its base URL, it
// finds the bug planted in that API's server, prints it with a curl line that reproduces it,
// writes the JSON report and exits 1; exits 0 when nothing is found; exits 2 on bad usage.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.ts';
import { parseArguments } from '../../fuzz/command-line.ts';
import { fuzz } from '../../fuzz/run.ts';
import { readDocument, targetOf } from '../../fuzz/spec.ts';
import { NOTES_KEY, NOTES_SPEC, type NotesServer, startNotesServer } from '../support/fuzz/notes-server.ts';

const run = promisify(execFile);
const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run fuzz -- <args>`, as a person or a CI job types it. */
async function npmRunFuzz(args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'fuzz', '--', ...args], { cwd: REPO_ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as Outcome;
    return { code, stdout, stderr };
  }
}

describe('npm run fuzz, given bad usage', () => {
  it.each<[string, string[], RegExp]>([
    ['no --base-url', [], /--base-url is required/],
    ['an unknown flag', ['--base-url', 'http://127.0.0.1:1', '--verbose'], /Unknown option '--verbose'/],
    ['a positional argument', ['--base-url', 'http://127.0.0.1:1', 'pets'], /Unexpected argument "pets"/],
    [
      'a seed that is no integer',
      ['--base-url', 'http://127.0.0.1:1', '--seed', 'abc'],
      /--seed must be a whole number/,
    ],
    ['a fractional seed', ['--base-url', 'http://127.0.0.1:1', '--seed', '1.5'], /--seed must be a whole number/],
    [
      'a negative seed',
      ['--base-url', 'http://127.0.0.1:1', '--seed=-1'],
      /--seed must be a whole number of at least 0/,
    ],
    [
      'no examples',
      ['--base-url', 'http://127.0.0.1:1', '--max-examples', '0'],
      /--max-examples must be .* at least 1/,
    ],
    ['a time in words', ['--base-url', 'http://127.0.0.1:1', '--max-response-time', 'soon'], /--max-response-time/],
    ['a flag without its value', ['--base-url'], /--base-url <value>' argument missing/],
  ])('refuses %s, naming the problem', (_case, argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });

  it.each([
    ['no URL', 'pets'],
    ['no http URL', 'ftp://127.0.0.1/v1'],
    ['a query', 'http://127.0.0.1:3000/v1?debug=1'],
  ])('refuses a base URL with %s', async (_case, baseUrl) => {
    const document = await readDocument(NOTES_SPEC);
    expect(() => targetOf(document, baseUrl)).toThrow(UsageError);
  });

  it('refuses a base URL nothing answers at', async () => {
    const document = await readDocument(NOTES_SPEC);
    // Port 1 is privileged and unused: the connection is refused at once.
    await expect(fuzz({ document, baseUrl: 'http://127.0.0.1:1/api', seed: 1, maxExamples: 1 })).rejects.toThrow(
      new UsageError('Nothing answers at http://127.0.0.1:1/api.'),
    );
  });

  it.each([
    ['a file that is not there', 'no-such-file.yaml', /Cannot read the document/],
    ['a file that is no OpenAPI 3.1 document', path.join(REPO_ROOT, 'package.json'), /not an OpenAPI 3.1 document/],
  ])('refuses %s as --spec', async (_case, file, message) => {
    await expect(readDocument(file)).rejects.toThrow(message);
  });

  it('exits 2, saying what is wrong and how to use it', async () => {
    const outcome = await npmRunFuzz(['--base-url', 'http://127.0.0.1:1/v1', '--seed', 'abc']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/--seed must be a whole number/);
    expect(outcome.stderr).toMatch(/Usage: npm run fuzz -- --base-url <url>/);
  });
});

describe('npm run fuzz, against another API', () => {
  let planted: NotesServer;
  let clean: NotesServer;
  let folder: string;
  beforeAll(async () => {
    [planted, clean, folder] = await Promise.all([
      startNotesServer('crashesAtLongestText'),
      startNotesServer(),
      mkdtemp(path.join(tmpdir(), 'fuzz-report-')),
    ]);
  });
  afterAll(async () => {
    await Promise.all([planted?.close(), clean?.close(), folder && rm(folder, { recursive: true, force: true })]);
  });

  const fuzzNotes = (baseUrl: string, report: string) =>
    npmRunFuzz([
      '--spec',
      NOTES_SPEC,
      '--base-url',
      baseUrl,
      '--key',
      NOTES_KEY,
      '--seed',
      '11',
      '--max-examples',
      '10',
      '--report',
      report,
    ]);

  it('finds the planted bug, prints it with a curl line that reproduces it, writes the report and exits 1', async () => {
    const reportFile = path.join(folder, 'planted.json');
    const outcome = await fuzzNotes(planted.baseUrl, reportFile);
    expect(outcome.code, outcome.stderr).toBe(1);

    const report = JSON.parse(await readFile(reportFile, 'utf8'));
    expect(report).toMatchObject({ seed: 11, skippedChecks: { max_response_time: expect.any(String) } });
    expect(Object.keys(report.operations).sort()).toEqual([
      'attachFile',
      'createNote',
      'deleteNote',
      'getHealth',
      'getNote',
      'listNotes',
    ]);
    expect(report.operations.createNote.statuses['500']).toBeGreaterThan(0);
    const crash = report.findings.find(
      (finding: { check: string; operationId: string }) =>
        finding.check === 'not_a_server_error' && finding.operationId === 'createNote',
    );
    expect(crash).toMatchObject({
      method: 'POST',
      path: '/api/notes',
      status: 500,
      message: expect.stringMatching(/5xx/),
    });
    expect(report.findings.every(({ operationId }: { operationId: string }) => operationId === 'createNote')).toBe(
      true,
    );

    // The printed block, as a person reads it.
    expect(outcome.stdout).toContain('✗ not_a_server_error  createNote  POST /api/notes → 500');
    expect(outcome.stdout).toContain(crash.curl);
    expect(outcome.stdout).toContain('export FUZZ_KEY=');

    // The curl line, pasted into a shell with the key in FUZZ_KEY, crashes the server again.
    const { stdout } = await run('sh', ['-c', crash.curl], { env: { ...process.env, FUZZ_KEY: NOTES_KEY } });
    expect(stdout.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 500 /);
  });

  it('exits 0 when nothing is found', async () => {
    const reportFile = path.join(folder, 'clean.json');
    const outcome = await fuzzNotes(clean.baseUrl, reportFile);
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    expect(JSON.parse(await readFile(reportFile, 'utf8')).findings).toEqual([]);
  });
});
