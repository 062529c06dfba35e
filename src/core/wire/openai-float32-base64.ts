/**
 * OpenAI's `encoding_format: "base64"`: the vector as little-endian float32 bytes, base64. The
 * byte order is written explicitly so the encoding does not depend on the host.
 */

export function encodeFloat32Base64(values: readonly number[]): string {
  const bytes = Buffer.allocUnsafe(values.length * 4);
  for (let i = 0; i < values.length; i++) bytes.writeFloatLE(values[i], i * 4);
  return bytes.toString('base64');
}

/** The inverse; undefined when the text is not a whole number of float32 values. */
export function decodeFloat32Base64(text: string): number[] | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) return undefined;
  const values = new Array<number>(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * 4);
  return values;
}
