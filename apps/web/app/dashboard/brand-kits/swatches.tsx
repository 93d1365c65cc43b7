/** A kit's colours as small squares, each named by its hex value. */
export function Swatches({ colours }: { colours: string[] }) {
  if (colours.length === 0) return <span className="text-xs text-slate-600">No colours</span>;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Colours">
      {colours.map((colour) => (
        <li key={colour} title={colour} className="size-6 rounded border border-slate-300" style={{ backgroundColor: colour }}>
          <span className="sr-only">{colour}</span>
        </li>
      ))}
    </ul>
  );
}
