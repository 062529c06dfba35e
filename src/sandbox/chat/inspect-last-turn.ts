import type { ChatMessage, ChatRequest, DocumentPart, ToolResultPart } from '../../core/chat.js';

export interface LastTurn {
  /** The text of the last user message (empty when there is none). */
  userText: string;
  /** The last text part of the last user message: the prompt itself, after any context an agent puts before it. */
  lastUserPart: string;
  /** True when the conversation ends with a user message (not tool results). */
  endsWithUser: boolean;
  /** Tool results of the final turn; empty when it holds none. */
  toolResults: ToolResultPart[];
  /** Attachments of the last user message. */
  images: number;
  documents: DocumentPart[];
}

function lastUserMessage(messages: readonly ChatMessage[]): ChatMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messages[i];
  return undefined;
}

/** What the sandbox needs to know about how the conversation ends. */
export function inspectLastTurn(request: ChatRequest): LastTurn {
  const messages = request.messages;
  const last = messages[messages.length - 1];
  const toolResults: ToolResultPart[] = [];
  // Consecutive tool turns at the end form one turn of results (parallel calls).
  for (let i = messages.length - 1; i >= 0; i--) {
    const results = messages[i].content.filter((p): p is ToolResultPart => p.type === 'tool_result');
    if (results.length === 0) break;
    toolResults.unshift(...results);
    if (messages[i].role !== 'tool') break;
  }
  const user = lastUserMessage(messages);
  let userText = '';
  let lastUserPart = '';
  let images = 0;
  const documents: DocumentPart[] = [];
  if (user) {
    for (const part of user.content) {
      if (part.type === 'text') {
        userText = userText ? `${userText}\n${part.text}` : part.text;
        lastUserPart = part.text;
      } else if (part.type === 'image') images++;
      else if (part.type === 'document') documents.push(part);
    }
  }
  return {
    userText,
    lastUserPart,
    endsWithUser: last !== undefined && last.role === 'user' && toolResults.length === 0,
    toolResults,
    images,
    documents,
  };
}
