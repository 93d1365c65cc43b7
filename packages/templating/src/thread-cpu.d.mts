export function currentThreadId(): number | null;
export function threadCpuMs(threadId?: number | null): number | null;
export function overrunVerdict(spent: { wallMs: number; cpuMs: number | null; timeMs: number; safetyMs: number }): 'template_timeout' | 'overloaded' | null;
