/** "Are you sure?" before something that cannot be undone: Cancel, or the dangerous action. */
import type { ComponentChildren } from 'preact';
import { Dialog } from './dialog.js';

export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  action: string;
  onConfirm: () => void;
  onCancel: () => void;
  children: ComponentChildren;
}) {
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onCancel}>
      {props.children}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.action}
        </button>
      </div>
    </Dialog>
  );
}
