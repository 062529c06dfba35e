/**
 * Sets a scenario's limit rules on a gengate target through its admin API for the time the
 * scenario is measured, and removes them after. A gengate without limits (an older baseline)
 * answers 404: the cell then runs without them, and the report says so.
 */
import { GENGATE_KEY } from './start-servers.js';

export async function applyScenarioLimits(
  baseUrl: string,
  rules: ReadonlyArray<Record<string, unknown>>,
): Promise<{ applied: boolean; remove(): Promise<void> }> {
  const ids: string[] = [];
  const headers = { authorization: `Bearer ${GENGATE_KEY}`, 'content-type': 'application/json' };
  for (const rule of rules) {
    const response = await fetch(`${baseUrl}/admin/v1/limits`, { method: 'POST', headers, body: JSON.stringify(rule) });
    if (response.status === 404) return { applied: false, remove: async () => {} };
    if (!response.ok) throw new Error(`setting a bench limit failed: ${response.status} ${await response.text()}`);
    ids.push(((await response.json()) as { id: string }).id);
  }
  // The rules reach admission on the invalidation bus: give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    applied: true,
    async remove() {
      for (const id of ids) await fetch(`${baseUrl}/admin/v1/limits/${id}`, { method: 'DELETE', headers: { authorization: headers.authorization } });
    },
  };
}
