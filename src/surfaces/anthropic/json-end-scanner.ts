/**
 * Tells, piece by piece and in linear time, when streamed text has formed one whole JSON
 * object or array: nesting depth outside strings, with string escapes followed across piece
 * boundaries. It does not validate; it only finds where the outermost value closes.
 */
export class JsonEndScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private opened = false;
  complete = false;

  feed(text: string): void {
    for (let i = 0; i < text.length && !this.complete; i++) {
      const ch = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === 0x5c) this.escaped = true;
        else if (ch === 0x22) this.inString = false;
      } else if (ch === 0x22) {
        this.inString = true;
      } else if (ch === 0x7b || ch === 0x5b) {
        this.depth++;
        this.opened = true;
      } else if (ch === 0x7d || ch === 0x5d) {
        this.depth--;
        if (this.opened && this.depth === 0) this.complete = true;
      }
    }
  }
}
