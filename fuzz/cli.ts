// `npm run fuzz -- --base-url <url> [--key <api key>] [--spec <file>] [--seed <n>] [--max-examples <n>]
// [--max-response-time <ms>] [--report <file>] [--stateless] [--allow-503]`: fuzzes any server of an
// OpenAPI 3.1 document and prints each finding with a curl command line that reproduces it.
// Exits 0 when nothing was found, 1 on any finding, 2 on bad usage.
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.ts';
import { type Arguments, findingBlock, parseArguments, reportJson, summary, USAGE } from './command-line.ts';
import { fuzz } from './run.ts';
import { readDocument } from './spec.ts';

async function main(argv: string[]): Promise<number> {
  let args: Arguments | 'help';
  try {
    args = parseArguments(argv);
    if (args === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const document = await readDocument(args.spec);
    const report = await fuzz({
      document,
      baseUrl: args.baseUrl,
      key: args.key,
      seed: args.seed,
      maxExamples: args.maxExamples,
      maxResponseTimeMs: args.maxResponseTimeMs,
      stateful: !args.stateless,
      allow503: args.allow503,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    for (const finding of report.findings) process.stdout.write(`\n${findingBlock(finding)}\n`);
    process.stdout.write(`\n${summary(report, args.key)}\n`);
    if (args.report !== undefined) {
      await writeFile(args.report, reportJson(report));
    }
    return report.findings.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    // Most often a document the contract module cannot compile (a keyword JSON Schema 2020-12 lacks).
    else process.stderr.write(`The fuzzer could not run: ${(error as Error).stack ?? String(error)}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
