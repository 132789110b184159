/** A confusion matrix as a small self-contained SVG: labelled primaries down, predicted primaries across, "none" last. */
import { PROFILES } from '../../src/domain/profiles';

const CELL = 34;
const LEFT = 120;
const TOP = 86;

const escape = (text: string): string => text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');

export function confusionSvg(title: string, matrix: readonly (readonly number[])[]): string {
  const columns = [...PROFILES.map((p) => p.code), 'none'];
  const rows = PROFILES.map((p) => `${p.name} (${p.code})`);
  const width = LEFT + columns.length * CELL + 20;
  const height = TOP + rows.length * CELL + 40;
  const rowTotals = matrix.map((row) => row.reduce((a, b) => a + b, 0));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="18" font-size="13" font-weight="bold">${escape(title)}</text>`,
    `<text x="${LEFT}" y="36">predicted primary →  (share of each labelled row; the diagonal is right)</text>`,
  ];
  columns.forEach((code, c) => parts.push(`<text x="${LEFT + c * CELL + CELL / 2}" y="${TOP - 8}" text-anchor="middle">${code}</text>`));
  rows.forEach((label, r) => {
    const y = TOP + r * CELL;
    parts.push(`<text x="${LEFT - 6}" y="${y + CELL / 2 + 4}" text-anchor="end">${escape(label)}</text>`);
    columns.forEach((_, c) => {
      const n = matrix[r]?.[c] ?? 0;
      const total = rowTotals[r] ?? 0;
      const shade = total === 0 ? 0 : n / total;
      const fill = c === r ? `rgba(34,139,34,${shade.toFixed(3)})` : `rgba(200,40,40,${shade.toFixed(3)})`;
      const x = LEFT + c * CELL;
      parts.push(`<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}" fill="${fill}" stroke="#cccccc"/>`);
      if (n > 0) parts.push(`<text x="${x + CELL / 2}" y="${y + CELL / 2 + 4}" text-anchor="middle">${n}</text>`);
    });
  });
  parts.push(`<text x="${LEFT}" y="${height - 12}">rows: labelled primary; "none": the prediction abstained (null profile)</text>`, '</svg>');
  return `${parts.join('\n')}\n`;
}
