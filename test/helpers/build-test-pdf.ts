/**
 * Writes a small, valid PDF by hand: one page per entry, each line of text in Helvetica on a
 * line of its own, with a correct cross-reference table. Lines are Latin-1 text.
 */
export function buildTestPdf(pages: string[][]): Buffer {
  const objects: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ');
  objects[2] = `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((lines, i) => {
    // `Tj` shows the first line; `'` moves to the next line (leading 14) and shows the next.
    const operators = ['BT', '/F1 12 Tf', '14 TL', '72 720 Td'];
    lines.forEach((line, j) => operators.push(`(${line.replace(/[\\()]/g, (c) => `\\${c}`)}) ${j === 0 ? 'Tj' : "'"}`));
    operators.push('ET');
    const stream = operators.join('\n');
    objects[4 + 2 * i] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`;
    objects[5 + 2 * i] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let n = 1; n < objects.length; n++) {
    offsets[n] = Buffer.byteLength(pdf, 'latin1');
    pdf += `${n} 0 obj\n${objects[n]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(pdf, 'latin1');
  // Each entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, type, space, newline.
  pdf += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let n = 1; n < objects.length; n++) pdf += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
