/** Whether a JSON document read in chunks reached its end (the admin CLI's exports). */
import { JsonDocumentEnd } from '../../../src/cli/json-document-end';

/** An export's shape, with what could be taken for structure inside strings: brackets, quotes, escapes, non-ASCII. */
const DOCUMENT = `${JSON.stringify({
  account: { accountId: 1, name: 'Acme "[{" Ltd \\ }]', createdAt: '2026-11-27T00:00:00.000Z' },
  keys: [{ keyId: 1, prefix: 'pps_live_0123abcd' }],
  snaps: [{ snapId: 2, request: { name: 'Zoë Ł. 李 ]}', notes: 'a\\"b' }, prediction: { primary: null } }],
  erasures: [],
})}\n`;

function reached(text: string, chunkBytes: number): boolean {
  const bytes = new TextEncoder().encode(text);
  const end = new JsonDocumentEnd();
  for (let at = 0; at < bytes.length; at += chunkBytes) end.feed(bytes.subarray(at, at + chunkBytes));
  return end.reached;
}

describe('JsonDocumentEnd', () => {
  test.each([1, 7, 4096])('when the whole document arrives in chunks of %i bytes, then its end is reached', (chunkBytes) => {
    expect(reached(DOCUMENT, chunkBytes)).toBe(true);
  });

  test('when the document is cut anywhere before its last closing brace, then its end is not reached', () => {
    const lastBrace = DOCUMENT.lastIndexOf('}');
    const cuts = Array.from({ length: lastBrace + 1 }, (_, length) => length).filter((length) => reached(DOCUMENT.slice(0, length), 5));
    expect(cuts).toEqual([]);
  });

  test.each([
    ['nothing', ''],
    ['a bare string', '"{}"'],
  ])('when the body is %s, then no document was read', (_name, text) => {
    expect(reached(text, 3)).toBe(false);
  });
});
