/**
 * A task record's `buttons` → canonical follow-up buttons, bounded: at most 25 (Discord's own
 * limit for a message), each field a short string or a small number; malformed entries dropped.
 */
import type { TaskButton } from '../../core/task.js';

export const MAX_MJ_BUTTONS = 25;
const MAX_CUSTOM_ID_CHARS = 256;
const MAX_LABEL_CHARS = 80;
/** Discord's component type for a button, and its grey "secondary" style. */
const BUTTON_TYPE = 2;
const SECONDARY_STYLE = 2;

export function mapMjButtons(buttons: unknown): TaskButton[] | undefined {
  if (!Array.isArray(buttons)) return undefined;
  const mapped: TaskButton[] = [];
  for (const entry of buttons.slice(0, MAX_MJ_BUTTONS * 4)) {
    if (mapped.length === MAX_MJ_BUTTONS) break;
    const button = toButton(entry);
    if (button) mapped.push(button);
  }
  return mapped;
}

function toButton(entry: unknown): TaskButton | undefined {
  if (entry === null || typeof entry !== 'object') return undefined;
  const { customId, label, emoji, type, style } = entry as Record<string, unknown>;
  if (typeof customId !== 'string' || customId === '' || customId.length > MAX_CUSTOM_ID_CHARS) return undefined;
  const button: TaskButton = {
    customId,
    label: typeof label === 'string' ? label.slice(0, MAX_LABEL_CHARS) : '',
    type: smallInteger(type) ?? BUTTON_TYPE,
    style: smallInteger(style) ?? SECONDARY_STYLE,
  };
  if (typeof emoji === 'string' && emoji !== '') button.emoji = emoji.slice(0, MAX_LABEL_CHARS);
  return button;
}

function smallInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255 ? value : undefined;
}
