/** Which cluster worker answered which request, read from the gateway's JSON access log lines. */
export function workersByRequest(output: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; reqId?: string; worker?: number };
      if (entry.msg === 'request' && entry.reqId && typeof entry.worker === 'number') map.set(entry.reqId, entry.worker);
    } catch {
      // A partial line still being written.
    }
  }
  return map;
}
