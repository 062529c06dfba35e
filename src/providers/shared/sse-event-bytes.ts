/**
 * Finds stream events of the common shape (`[event: NAME\n]data: DATA\n\n`) in the received
 * bytes, so the pass-through relay can handle them without decoding them.
 */

/**
 * One complete event as received, of the common shape `[event: NAME\n]data: DATA\n\n`:
 * offsets into `bytes` (its data `[dataStart, dataEnd)`, its name `[nameStart, nameEnd)`, both
 * -1 when it has none).
 */
export interface EventBytes {
  bytes: Buffer;
  nameStart: number;
  nameEnd: number;
  dataStart: number;
  dataEnd: number;
}

/** `commonEventAt`: the event at the position is not of the common shape (decode it). */
export const OTHER_SHAPE = -1;
/** `commonEventAt`: the bytes end before the event at the position does. */
export const INCOMPLETE = -2;

/**
 * Fills `view` with the event that starts at `start` when it has the common shape (an optional
 * `event:` line, one `data:` line, a blank line) and returns where it ends; `OTHER_SHAPE` when
 * it has another, `INCOMPLETE` when the bytes end before it is seen whole.
 */
export function commonEventAt(bytes: Buffer, start: number, view: EventBytes): number {
  let line = start;
  view.nameStart = -1;
  view.nameEnd = -1;
  // Too short to tell (and possibly a short event of another shape): the blank-line search decides.
  if (line + 6 > bytes.length) return OTHER_SHAPE;
  // "event:"
  if (
    bytes[line] === 101 &&
    bytes[line + 1] === 118 &&
    bytes[line + 2] === 101 &&
    bytes[line + 3] === 110 &&
    bytes[line + 4] === 116 &&
    bytes[line + 5] === 58
  ) {
    let at = line + 6;
    if (bytes[at] === 32) at++;
    const lineEnd = bytes.indexOf(10, at);
    if (lineEnd === -1) return INCOMPLETE;
    view.nameStart = at;
    view.nameEnd = lineEnd;
    line = lineEnd + 1;
  }
  // "data:"
  if (!(bytes[line] === 100 && bytes[line + 1] === 97 && bytes[line + 2] === 116 && bytes[line + 3] === 97 && bytes[line + 4] === 58)) return OTHER_SHAPE;
  let at = line + 5;
  if (bytes[at] === 32) at++;
  const lineEnd = bytes.indexOf(10, at);
  if (lineEnd === -1 || lineEnd + 1 >= bytes.length) return INCOMPLETE;
  if (bytes[lineEnd + 1] !== 10) return OTHER_SHAPE;
  view.bytes = bytes;
  view.dataStart = at;
  view.dataEnd = lineEnd;
  return lineEnd + 2;
}
