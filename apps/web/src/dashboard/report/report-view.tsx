// The render report on the dashboard: problems first, in plain words, then fonts, timing and the
// file (the render page); and the problems alone, compact, beside the template editor's test render.
import type { RenderReport, ReportProblem } from '@svc/contracts';
import { Card, CardHeader } from '../ui/card.tsx';
import { LocalNumber } from '../ui/local-format.tsx';
import { Table, Td, Th, Tr } from '../ui/table.tsx';
import { problemLines } from './problem-text.ts';

const stageLabels: [keyof RenderReport['timing'], string][] = [
  ['queue_wait_ms', 'Waiting for a renderer'],
  ['content_load_ms', 'Loading the document'],
  ['fonts_ready_ms', 'Loading fonts'],
  ['ready_wait_ms', 'Waiting for the document to be ready'],
  ['capture_ms', 'Drawing the file'],
  ['post_process_ms', 'Finishing the file'],
  ['storage_ms', 'Storing the file'],
];

const sourceLabels = { document: 'the document', brand_kit: 'the brand kit', system: 'installed on the service' } as const;

/** The problems as a list, each with its place and the text around it. */
export function ReportProblemList({ problems, omitted, compact = false }: { problems: readonly ReportProblem[]; omitted: number; compact?: boolean }) {
  const lines = problemLines(problems);
  return (
    <ul className={compact ? 'space-y-1 text-sm' : 'space-y-3 text-sm'} data-testid="report-problems">
      {lines.map((line, index) => (
        <li key={index} className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950" data-testid="report-problem">
          <p>{line.text}</p>
          {line.where ? <p className="mt-0.5 font-mono text-xs break-all text-amber-900">in {line.where}</p> : null}
          {line.url ? <p className="mt-0.5 font-mono text-xs break-all text-amber-900">{line.url}</p> : null}
          {line.context && !compact ? <p className="mt-0.5 text-xs text-amber-900">“{line.context}”</p> : null}
        </li>
      ))}
      {omitted > 0 ? <li className="text-xs text-slate-600">and {omitted} more not listed</li> : null}
    </ul>
  );
}

/** The whole report, as the render page shows it. */
export function ReportView({ report }: { report: RenderReport }) {
  const unfinished = report.status === 'queued' || report.status === 'running';
  return (
    <div className="grid gap-6" data-testid="render-report">
      <Card aria-labelledby="report-problems-heading">
        <CardHeader id="report-problems-heading" title="Problems" description="Anything that may make the file differ from what the document meant." />
        {unfinished ? (
          <p className="text-sm text-slate-600">The report is written when the render ends.</p>
        ) : report.problems.length === 0 ? (
          <p className="text-sm text-slate-700" data-testid="report-no-problems">
            None found.
          </p>
        ) : (
          <ReportProblemList problems={report.problems} omitted={report.omitted} />
        )}
      </Card>
      <Card aria-labelledby="report-fonts-heading">
        <CardHeader id="report-fonts-heading" title="Fonts" description="The fonts that drew the document's text." />
        {report.fonts.length === 0 ? (
          <p className="text-sm text-slate-600">No fonts recorded.</p>
        ) : (
          <Table caption="Fonts">
            <thead>
              <Tr>
                <Th>Family</Th>
                <Th>Face</Th>
                <Th>From</Th>
                <Th>Embedded</Th>
                <Th className="text-right">Characters</Th>
              </Tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {report.fonts.map((font) => (
                <Tr key={`${font.family}/${font.face}/${font.source}`}>
                  <Td>{font.family}</Td>
                  <Td className="font-mono text-xs">{font.face}</Td>
                  <Td>{sourceLabels[font.source]}</Td>
                  <Td>{font.embedded === null ? '—' : font.embedded ? 'yes' : 'no'}</Td>
                  <Td className="text-right">
                    {font.glyphs === null ? '—' : <LocalNumber value={font.glyphs} />}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
        <p className="mt-3 text-sm text-slate-600">
          JavaScript was {report.script.mode === 'enabled' ? 'on' : 'off'}
          {report.script.script_elements + report.script.event_handlers > 0
            ? `; the document has ${report.script.script_elements} script elements and ${report.script.event_handlers} event handlers.`
            : '.'}
        </p>
      </Card>
      <Card aria-labelledby="report-timing-heading">
        <CardHeader id="report-timing-heading" title="Timing" />
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm" data-testid="report-timing">
          {stageLabels.map(([stage, label]) => {
            const ms = report.timing[stage];
            return (
              <div key={stage} className="contents">
                <dt className="text-slate-600">{label}</dt>
                <dd className="text-slate-900">{ms === null ? 'not reached' : <LocalNumber value={ms} options={{ style: 'unit', unit: 'millisecond' }} />}</dd>
              </div>
            );
          })}
        </dl>
      </Card>
      <Card aria-labelledby="report-file-heading">
        <CardHeader id="report-file-heading" title="File" />
        {report.output === null ? (
          <p className="text-sm text-slate-600">{unfinished ? 'Not made yet.' : 'No file was made.'}</p>
        ) : (
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm" data-testid="report-file">
            <dt className="text-slate-600">Type</dt>
            <dd>{report.output.media_type}</dd>
            <dt className="text-slate-600">Size</dt>
            <dd>
              <LocalNumber value={report.output.byte_size} /> bytes
            </dd>
            {report.output.pages !== null ? (
              <>
                <dt className="text-slate-600">Pages</dt>
                <dd>{report.output.pages}</dd>
              </>
            ) : null}
            {report.output.width !== null && report.output.height !== null ? (
              <>
                <dt className="text-slate-600">Pixels</dt>
                <dd>
                  {report.output.width}×{report.output.height}
                </dd>
              </>
            ) : null}
          </dl>
        )}
      </Card>
    </div>
  );
}
