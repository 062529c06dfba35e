/**
 * A table that scrolls sideways on narrow screens. The scrolling region is focusable (and
 * named) so keyboard users can scroll it too.
 */
import type { ComponentChildren } from 'preact';

export function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard (WCAG 2.1.1)
    <section class="table-wrap" aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}
