// Reads a Prometheus text exposition (format 0.0.4) as a scraper does, strictly: every line is a
// comment, blank, or a sample `name{label="value",...} value`, and anything else fails the test.
// (parse-prometheus-text-format drops the labels, count and sum of prom-client's histograms.)

export interface Exposition {
  /** The metric families' names, from their `# TYPE` lines. */
  names: string[];
  /** A sample's value for exactly these labels (0 when the series is absent). */
  value(name: string, labels?: Record<string, string>): number;
  /** A histogram's observation count and sum for exactly these labels (0 and 0 when absent). */
  histogram(name: string, labels?: Record<string, string>): { count: number; sum: number };
  /** Every label set the samples named `name` have. */
  labelSets(name: string): Record<string, string>[];
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

export function parseExposition(text: string): Exposition {
  const names: string[] = [];
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type?.[1]) names.push(type[1]);
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`Not a sample line of the exposition: ${line}`);
    samples.push({ name: match[1], labels: parseLabels(match[2] ?? '', line), value: Number(match[3]) });
  }
  const sample = (name: string, labels: Record<string, string>) =>
    samples.find((candidate) => candidate.name === name && sameLabels(candidate.labels, labels));
  return {
    names,
    value: (name, labels = {}) => sample(name, labels)?.value ?? 0,
    histogram: (name, labels = {}) => ({
      count: sample(`${name}_count`, labels)?.value ?? 0,
      sum: sample(`${name}_sum`, labels)?.value ?? 0,
    }),
    labelSets: (name) => samples.filter((candidate) => candidate.name === name).map(({ labels }) => labels),
  };
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let at = 0;
  for (let match = LABEL.exec(text); match !== null; match = LABEL.exec(text)) {
    const [whole, name = '', value = ''] = match;
    labels[name] = value.replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    at += whole.length;
  }
  if (at !== text.length) throw new Error(`Malformed labels in the exposition: ${line}`);
  return labels;
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
