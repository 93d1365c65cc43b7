// Renders per day as an SVG bar chart drawn on the server: no chart library in the browser.
import type { RenderDay } from '@svc/core';

const width = 720;
const height = 200;
const padding = { top: 12, right: 8, bottom: 28, left: 36 };

/** A rounded-up axis top: 1, 2, 5 or 10 times a power of ten. */
function niceMax(value: number): number {
  if (value <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].map((step) => step * power).find((step) => step >= value) ?? 10 * power) as number;
}

export function RenderChart({ days }: { days: RenderDay[] }) {
  const total = days.reduce((sum, day) => sum + day.succeeded + day.failed, 0);
  const failed = days.reduce((sum, day) => sum + day.failed, 0);
  const top = niceMax(Math.max(...days.map((day) => day.succeeded + day.failed), 0));
  const plotWidth = width - padding.left - padding.right;
  const plotHeight = height - padding.top - padding.bottom;
  const slot = plotWidth / days.length;
  const bar = Math.max(2, slot * 0.7);
  const y = (value: number) => padding.top + plotHeight - (value / top) * plotHeight;
  const summary = `Renders per day over the last ${days.length} days: ${total} finished, ${failed} failed.`;
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} className="h-auto w-full" data-testid="render-chart">
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line x1={padding.left} x2={width - padding.right} y1={y(tick)} y2={y(tick)} stroke="#e2e8f0" />
            <text x={padding.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="11" fill="#475569">
              {tick}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const x = padding.left + index * slot + (slot - bar) / 2;
          return (
            <g key={day.day}>
              <title>{`${day.day}: ${day.succeeded} succeeded, ${day.failed} failed`}</title>
              {day.succeeded > 0 ? <rect x={x} width={bar} y={y(day.succeeded)} height={y(0) - y(day.succeeded)} fill="#4f46e5" rx="1" /> : null}
              {day.failed > 0 ? (
                <rect x={x} width={bar} y={y(day.succeeded + day.failed)} height={y(day.succeeded) - y(day.succeeded + day.failed)} fill="#dc2626" rx="1" />
              ) : null}
              {index % 7 === (days.length - 1) % 7 ? (
                <text x={x + bar / 2} y={height - 8} textAnchor="middle" fontSize="11" fill="#475569">
                  {day.day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-2 flex flex-wrap items-center gap-4 text-xs text-slate-600">
        <span className="inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-indigo-600" /> Succeeded
        </span>
        <span className="inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-red-600" /> Failed
        </span>
        <span>Days in UTC, by when the render finished.</span>
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-slate-700">Show as a table</summary>
        <table className="mt-2 text-left text-xs">
          <thead>
            <tr>
              <th scope="col" className="pr-4">Day</th>
              <th scope="col" className="pr-4">Succeeded</th>
              <th scope="col">Failed</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <td className="pr-4 font-mono">{day.day}</td>
                <td className="pr-4">{day.succeeded}</td>
                <td>{day.failed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
