/** The fields of the first JSON log line with this message in a process's output, if any. */
export function loggedEvent(output: string, message: string): Record<string, unknown> | undefined {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{') || !line.includes(message)) continue;
    try {
      const event = JSON.parse(line) as Record<string, unknown>;
      if (event.message === message) return event;
    } catch {
      // a line cut by the pipe, or not a log line
    }
  }
  return undefined;
}
