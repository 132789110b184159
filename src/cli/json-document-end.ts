/**
 * Whether a JSON document read in chunks reached its end: the brackets and braces opened
 * outside strings are counted, so a document cut anywhere before its last closing bracket
 * is told from a whole one without holding it in memory. Not a validator: it assumes the
 * text is JSON as far as it goes (the server's JSON.stringify output).
 * @see https://www.rfc-editor.org/rfc/rfc8259#section-2
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENING = new Set([0x5b, 0x7b]); // [ {
const CLOSING = new Set([0x5d, 0x7d]); // ] }

export class JsonDocumentEnd {
  private depth = 0;
  private opened = false;
  private inString = false;
  private escaped = false;

  /** Reads the next chunk (UTF-8: every byte of a multi-byte character is above 0x7f, so none is taken for a bracket). */
  feed(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) {
        this.inString = true;
      } else if (OPENING.has(byte)) {
        this.depth += 1;
        this.opened = true;
      } else if (CLOSING.has(byte)) {
        this.depth -= 1;
      }
    }
  }

  /** An object or array was opened, and everything opened has been closed. */
  get reached(): boolean {
    return this.opened && this.depth === 0 && !this.inString;
  }
}
