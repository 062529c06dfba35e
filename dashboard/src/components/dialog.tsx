/**
 * A modal on the native `<dialog>`: `showModal()` gives the focus trap, Escape to close and an
 * inert page behind it.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; testId?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  const titleId = `dialog-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      data-testid={props.testId}
      onClose={() => {
        if (props.open) props.onClose();
      }}
    >
      {props.open && (
        <>
          <h2 id={titleId}>{props.title}</h2>
          {props.children}
        </>
      )}
    </dialog>
  );
}
