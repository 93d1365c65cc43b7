// The service's mark: a page on an indigo tile. The file is also the favicon (app/icon.svg),
// so the mark is drawn in one place; beside the service's name it says nothing of its own.
export function LogoMark({ size = 28 }: { size?: number }) {
  return <img src="/icon.svg" alt="" width={size} height={size} className="shrink-0" />;
}
