import { createRequire } from 'node:module';

/** A metric family as the Prometheus text parser gives it back (it keeps no labels of histogram series). */
export interface MetricFamily {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: unknown[];
}

// The package ships no types: its one function, typed here.
const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => MetricFamily[];

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** An exposition read twice: by the Prometheus text parser (which throws on text Prometheus would refuse), and sample by sample. */
export interface Exposition {
  families: Map<string, MetricFamily>;
  samples: Sample[];
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheus(text: string): Exposition {
  const families = new Map(parse(text).map((family) => [family.name, family]));
  const samples = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = SAMPLE_LINE.exec(line);
      if (match === null) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((label) => [label[1]!, label[2]!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
  return { families, samples };
}

/** The value of the first sample named `name` whose labels include `labels`; undefined when none. */
export function sampleOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  return exposition.samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}
