import type { Registry } from 'prom-client';

/** One label set's counts: per bucket (not cumulative), sum and count. */
interface Series {
  labels: Record<string, string>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram for the request path: an observation is an array slot's increment, with no label
 * hashing or validation (prom-client's own histogram does both at every observe, a few microseconds a
 * request). Label sets are made once, by `series(labels)`, and kept by the caller; the registry reads the
 * counts when Prometheus scrapes, in prom-client's format.
 */
export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** The recorder of one label set: call it with each observed value. */
  series(labels: Record<string, string>): (value: number) => void {
    const series: Series = { labels, buckets: new Float64Array(this.upperBounds.length + 1), sum: 0, count: 0 };
    this.all.push(series);
    const bounds = this.upperBounds;
    return (value) => {
      let at = 0;
      while (at < bounds.length && value > bounds[at]!) at += 1;
      series.buckets[at]! += 1;
      series.sum += value;
      series.count += 1;
    };
  }

  /** What prom-client's registry reads (Registry.getMetricsAsString): cumulative buckets, then sum and count. */
  async get() {
    const values = this.all.flatMap((series) => {
      let cumulative = 0;
      const buckets = [...this.upperBounds.map(String), '+Inf'].map((le, at) => {
        cumulative += series.buckets[at]!;
        return { labels: { ...series.labels, le }, value: cumulative, metricName: `${this.name}_bucket` };
      });
      return [
        ...buckets,
        { labels: series.labels, value: series.sum, metricName: `${this.name}_sum` },
        { labels: series.labels, value: series.count, metricName: `${this.name}_count` },
      ];
    });
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const series of this.all) {
      series.buckets.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
