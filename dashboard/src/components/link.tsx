import type { ComponentChildren } from 'preact';
import { onLinkClick } from '../router.js';

export function Link(props: { href: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a href={props.href} class={props.class} onClick={onLinkClick} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
