/**
 * The MJ proxy's answer envelope for what is not a task record: `{code: 1, description, result}`
 * (code 1 is success; failures are `render-error.ts`'s).
 */
interface ImgtaskAnswer<T> {
  code: 1;
  description: string;
  result: T;
}

export function imgtaskAnswer<T>(description: string, result: T): ImgtaskAnswer<T> {
  return { code: 1, description, result };
}

/** A submit's answer: the new task's id. */
export function renderSubmitted(taskId: string): ImgtaskAnswer<string> & { properties: Record<string, never> } {
  return { ...imgtaskAnswer('Submit success', taskId), properties: {} };
}
