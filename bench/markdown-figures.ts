/** How the report writes a figure: fixed digits, and "–" where there is nothing to show. */

const MB = 1024 * 1024;

export const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : '–');
export const signedMs = (value: number): string => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(2)}` : '–');
export const mb = (bytes: number): string => (bytes > 0 ? (bytes / MB).toFixed(1) : '–');
export const ratio = (a: number | undefined, b: number | undefined, digits = 2): string =>
  a !== undefined && b !== undefined && b > 0 ? (a / b).toFixed(digits) : '–';
/** A table cell's text with its pipes escaped, so that it stays one cell. */
export const cellText = (text: string): string => text.replace(/\|/g, '\\|');
