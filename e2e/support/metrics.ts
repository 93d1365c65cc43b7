// Reads a Prometheus text exposition the way a scraper does, for before/after comparisons.

/** One scrape: every sample by name, with its labels. */
export interface Scrape {
  text: string;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

export async function scrape(url: string, token: string): Promise<Scrape> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const text = await response.text();
  const samples = text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
  return { text, samples };
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function total(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  return scraped.samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** Whether the exposition declares the family (its TYPE line), with or without samples. */
export function declares(scraped: Scrape, family: string): boolean {
  return new RegExp(`^# TYPE ${family} `, 'm').test(scraped.text);
}
