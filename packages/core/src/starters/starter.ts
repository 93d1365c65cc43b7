import type { PaperFormat } from '@svc/rules';
import type { SizeVariantInput } from '@svc/contracts';

/**
 * How a starter is meant to be rendered. The same rule the service applies to a source
 * message's `auto` output: a canvas source is an image of its canvas, anything else a PDF.
 */
export type StarterOutput =
  | { type: 'pdf'; pdf: { format: PaperFormat; landscape?: boolean; margins?: { top: string; right: string; bottom: string; left: string } } }
  | { type: 'image'; format: 'png' | 'jpeg' | 'webp'; width: number; height: number };

/** One template of the public starter gallery, kept as code so it ships with every build. */
export interface Starter {
  /** the gallery id, lowercase with hyphens */
  id: string;
  name: string;
  /** one sentence for the gallery card */
  description: string;
  tags: string[];
  inputMode: 'html' | 'blank';
  source: string;
  /** a JSON schema (draft 2020-12) the sample data satisfies */
  schema: Record<string, unknown>;
  sampleData: Record<string, unknown>;
  output: StarterOutput;
  /** saved sizes of a canvas starter, each with its own canvas source */
  sizes?: SizeVariantInput[];
}
