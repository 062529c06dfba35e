/**
 * Collects a stream's text pieces, up to a limit, in a form that is cheap to keep alive.
 *
 * Why not `text += piece`: each append makes a cons string that points at the piece, so a
 * stream of a few hundred deltas keeps a few hundred small strings and as many cons cells
 * alive until it ends. They outlive the young generation's collections and are promoted one
 * by one (about 50 bytes per delta for a few characters of text). Joining the pieces in
 * batches keeps the text in a few flat strings instead, and the pieces die young.
 */
const BATCH = 32;

/** Produced text kept for billing a cut stream, in UTF-16 code units. */
export const PRODUCED_TEXT_LIMIT = 1024 * 1024;

export class TextCollector {
  private readonly pieces: string[] = [];
  private joined = '';
  private size = 0;

  constructor(private readonly limit: number) {}

  add(piece: string): void {
    const room = this.limit - this.size;
    if (room <= 0 || piece.length === 0) return;
    const kept = piece.length > room ? piece.slice(0, room) : piece;
    this.pieces.push(kept);
    this.size += kept.length;
    if (this.pieces.length === BATCH) this.fold();
  }

  /** Everything collected, in order. */
  text(): string {
    this.fold();
    return this.joined;
  }

  private fold(): void {
    if (this.pieces.length === 0) return;
    this.joined += this.pieces.join('');
    this.pieces.length = 0;
  }
}
