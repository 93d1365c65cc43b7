/** The calendar month (UTC) of a time, as YYYY-MM; credit allowances and overage count per period. */
export function periodOf(time: Date): string {
  return time.toISOString().slice(0, 7);
}
