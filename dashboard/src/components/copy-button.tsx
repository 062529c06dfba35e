/** Copies text with the clipboard API; where that is refused (no secure context), selects the field for Ctrl+C. */
import { useState } from 'preact/hooks';

export function CopyButton(props: { text: string; fieldId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'select'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      const field = document.getElementById(props.fieldId) as HTMLInputElement | null;
      field?.focus();
      field?.select();
      setState('select');
    }
  };
  return (
    <>
      <button type="button" onClick={copy}>
        Copy
      </button>
      <span role="status" class="muted">
        {state === 'copied' ? 'Copied.' : state === 'select' ? 'Selected: press Ctrl+C (⌘C) to copy.' : ''}
      </span>
    </>
  );
}
