/**
 * A turn a test decides from the request itself, for conversations the fakes cannot guess: the
 * agent tests drive a real tool loop (call the agent's own tool, then answer once its result
 * comes back), so the answer depends on what the request holds, not on a queue of replays. A
 * fake given a `TurnScript` asks it first, after its own checks of the request, and renders
 * the turn in its dialect (JSON or stream); `undefined` falls back to the fake's own answer.
 */
export type ScriptedTurn = { text: string } | { toolCall: { name: string; args: Record<string, unknown> } };

/** Decides the answer from the (parsed, checked) request body of the fake's own dialect. */
export type TurnScript = (body: Record<string, unknown>) => ScriptedTurn | undefined;
