/** Chat with any model the signed-in account may use, streamed from `POST /playground/chat`. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, send } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { useTitle } from '../components/use-title.js';
import { formatInt } from '../lib/format.js';
import { type PlaygroundRoute, type PlaygroundUsage, parsePlaygroundEvent, SseParser } from '../lib/sse.js';
import type { Model } from '../types.js';

interface Message {
  role: 'user' | 'assistant';
  content: string;
}

const MAX_MESSAGES = 100;

export function PlaygroundPage() {
  useTitle('Playground');
  const [models, setModels] = useState<Model[]>([]);
  const [model, setModel] = useState('');
  const [system, setSystem] = useState('');
  const [input, setInput] = useState('');
  const [messages, setMessages] = useState<Message[]>([]);
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ usage: PlaygroundUsage | null; route: PlaygroundRoute | null } | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    get<{ data: Model[] }>('/models').then(
      (body) => {
        const chat = body.data.filter((m) => m.operations.includes('chat'));
        setModels(chat);
        setModel((current) => current || chat[0]?.id || '');
      },
      (e) => setError(messageOf(e)),
    );
    return () => abort.current?.abort();
  }, []);

  const sendMessage = async (event: Event) => {
    event.preventDefault();
    const text = input.trim();
    if (!text || !model || streaming) return;
    const history: Message[] = [...messages.filter((m) => m.content), { role: 'user' as const, content: text }].slice(-MAX_MESSAGES);
    setMessages([...history, { role: 'assistant', content: '' }]);
    setInput('');
    setError(null);
    setResult(null);
    setStreaming(true);
    const controller = new AbortController();
    abort.current = controller;
    const append = (chunk: string) =>
      setMessages((list) => {
        const last = list[list.length - 1];
        return [...list.slice(0, -1), { ...last, content: last.content + chunk }];
      });
    try {
      const body = { model, messages: [...(system.trim() ? [{ role: 'system' as const, content: system }] : []), ...history] };
      const response = await send('POST', '/playground/chat', body, { signal: controller.signal });
      if (!response.body) throw new Error('The browser gave no response stream.');
      const parser = new SseParser((data) => {
        const event = parsePlaygroundEvent(data);
        if (!event) return;
        if (event.type === 'text') append(event.text);
        else if (event.type === 'error') setError(event.message);
        else setResult({ usage: event.usage, route: event.route });
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(value);
      }
      parser.end();
    } catch (e) {
      if ((e as Error).name !== 'AbortError') setError(messageOf(e));
    } finally {
      setStreaming(false);
      abort.current = null;
    }
  };

  return (
    <>
      <h1>Playground</h1>
      <form class="playground" onSubmit={sendMessage}>
        <div class="fields">
          <label>
            Model
            <select required value={model} onChange={(e) => setModel(e.currentTarget.value)}>
              {models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.displayName && m.displayName !== m.id ? `${m.displayName} (${m.id})` : m.id}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="secondary"
            disabled={streaming || messages.length === 0}
            onClick={() => {
              setMessages([]);
              setResult(null);
            }}
          >
            New conversation
          </button>
        </div>
        <label>
          System prompt <span class="muted">(optional)</span>
          <textarea rows={2} maxLength={20000} value={system} onInput={(e) => setSystem(e.currentTarget.value)} />
        </label>
        <section class="conversation" aria-label="Conversation" aria-live="polite" aria-busy={streaming} data-testid="conversation">
          {messages.length === 0 && <p class="muted">No messages yet.</p>}
          {messages.map((m, i) => (
            <div key={i} class={`message ${m.role}`} data-testid={`message-${m.role}`}>
              <span class="who">{m.role === 'user' ? 'You' : 'Model'}</span>
              <p>{m.content || (streaming && i === messages.length - 1 ? '…' : '')}</p>
            </div>
          ))}
        </section>
        {result && (
          <p class="muted" data-testid="playground-result">
            {result.usage && `${formatInt(result.usage.inputTokens)} tokens in, ${formatInt(result.usage.outputTokens)} out`}
            {result.route && ` · via ${result.route.channel} (${result.route.provider})${result.route.simulated ? ' · simulated' : ''}`}
          </p>
        )}
        <ErrorAlert error={error} />
        <label>
          Message
          <textarea
            rows={3}
            maxLength={100000}
            value={input}
            onInput={(e) => setInput(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) (e.currentTarget.form as HTMLFormElement | null)?.requestSubmit();
            }}
          />
        </label>
        <div class="actions">
          {streaming && (
            <button type="button" class="secondary" onClick={() => abort.current?.abort()}>
              Stop
            </button>
          )}
          <button type="submit" disabled={streaming || !model || !input.trim()}>
            Send
          </button>
        </div>
      </form>
    </>
  );
}
