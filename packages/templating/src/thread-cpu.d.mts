export function currentThreadId(): number | null;
export function threadCpuMs(threadId?: number | null): number | null;
