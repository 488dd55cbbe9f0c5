// Characters whose compatibility form is one ASCII character, folded to it before detection: the
// fullwidth forms (`＜script＞`), the small and vertical forms (`﹤script﹥`, `︵`), superscripts
// and subscripts (`⁽`, `⁼`), the Greek question mark (`;`), letterlike symbols and circled letters
// (`ℂ`, `ⓐ`), and the mathematical alphanumerics (`𝐬𝐞𝐥𝐞𝐜𝐭`, outside the BMP). A backend that
// normalizes its input to NFKC (usernames, search, some drivers and ORMs) reads `﹤script﹥` as
// `<script>`; so does shield. The table is Unicode's NFKC mapping, written out so that every runtime
// folds the same whatever its ICU (compatibility-forms.test.ts checks it against
// `String.prototype.normalize('NFKC')` over every BMP character and the alphanumerics' block).

/**
 * One character to fold, as runs: `[first, count, target]` folds `first + i` to the character
 * `target` + i, for i below `count`.
 */
const RUNS: ReadonlyArray<readonly [number, number, string]> = [
  [0xa0, 1, ' '],
  [0xaa, 1, 'a'],
  [0xb2, 2, '2'],
  [0xb9, 1, '1'],
  [0xba, 1, 'o'],
  [0x17f, 1, 's'],
  [0x2b0, 1, 'h'],
  [0x2b2, 1, 'j'],
  [0x2b3, 1, 'r'],
  [0x2b7, 1, 'w'],
  [0x2b8, 1, 'y'],
  [0x2e1, 1, 'l'],
  [0x2e2, 1, 's'],
  [0x2e3, 1, 'x'],
  [0x37e, 1, ';'],
  [0x1d2c, 1, 'A'],
  [0x1d2e, 1, 'B'],
  [0x1d30, 2, 'D'],
  [0x1d33, 8, 'G'],
  [0x1d3c, 1, 'O'],
  [0x1d3e, 1, 'P'],
  [0x1d3f, 1, 'R'],
  [0x1d40, 2, 'T'],
  [0x1d42, 1, 'W'],
  [0x1d43, 1, 'a'],
  [0x1d47, 1, 'b'],
  [0x1d48, 2, 'd'],
  [0x1d4d, 1, 'g'],
  [0x1d4f, 1, 'k'],
  [0x1d50, 1, 'm'],
  [0x1d52, 1, 'o'],
  [0x1d56, 1, 'p'],
  [0x1d57, 2, 't'],
  [0x1d5b, 1, 'v'],
  [0x1d62, 1, 'i'],
  [0x1d63, 1, 'r'],
  [0x1d64, 2, 'u'],
  [0x1d9c, 1, 'c'],
  [0x1da0, 1, 'f'],
  [0x1dbb, 1, 'z'],
  [0x1fef, 1, '`'],
  [0x2000, 1, ' '],
  [0x2001, 1, ' '],
  [0x2002, 1, ' '],
  [0x2003, 1, ' '],
  [0x2004, 1, ' '],
  [0x2005, 1, ' '],
  [0x2006, 1, ' '],
  [0x2007, 1, ' '],
  [0x2008, 1, ' '],
  [0x2009, 1, ' '],
  [0x200a, 1, ' '],
  [0x2024, 1, '.'],
  [0x202f, 1, ' '],
  [0x205f, 1, ' '],
  [0x2070, 1, '0'],
  [0x2071, 1, 'i'],
  [0x2074, 6, '4'],
  [0x207a, 1, '+'],
  [0x207c, 1, '='],
  [0x207d, 2, '('],
  [0x207f, 1, 'n'],
  [0x2080, 10, '0'],
  [0x208a, 1, '+'],
  [0x208c, 1, '='],
  [0x208d, 2, '('],
  [0x2090, 1, 'a'],
  [0x2091, 1, 'e'],
  [0x2092, 1, 'o'],
  [0x2093, 1, 'x'],
  [0x2095, 1, 'h'],
  [0x2096, 4, 'k'],
  [0x209a, 1, 'p'],
  [0x209b, 2, 's'],
  [0x2102, 1, 'C'],
  [0x210a, 1, 'g'],
  [0x210b, 1, 'H'],
  [0x210c, 1, 'H'],
  [0x210d, 1, 'H'],
  [0x210e, 1, 'h'],
  [0x2110, 1, 'I'],
  [0x2111, 1, 'I'],
  [0x2112, 1, 'L'],
  [0x2113, 1, 'l'],
  [0x2115, 1, 'N'],
  [0x2119, 3, 'P'],
  [0x211c, 1, 'R'],
  [0x211d, 1, 'R'],
  [0x2124, 1, 'Z'],
  [0x2128, 1, 'Z'],
  [0x212a, 1, 'K'],
  [0x212c, 2, 'B'],
  [0x212f, 1, 'e'],
  [0x2130, 2, 'E'],
  [0x2133, 1, 'M'],
  [0x2134, 1, 'o'],
  [0x2139, 1, 'i'],
  [0x2145, 1, 'D'],
  [0x2146, 2, 'd'],
  [0x2148, 2, 'i'],
  [0x2160, 1, 'I'],
  [0x2164, 1, 'V'],
  [0x2169, 1, 'X'],
  [0x216c, 1, 'L'],
  [0x216d, 2, 'C'],
  [0x216f, 1, 'M'],
  [0x2170, 1, 'i'],
  [0x2174, 1, 'v'],
  [0x2179, 1, 'x'],
  [0x217c, 1, 'l'],
  [0x217d, 2, 'c'],
  [0x217f, 1, 'm'],
  [0x2460, 9, '1'],
  [0x24b6, 26, 'A'],
  [0x24d0, 26, 'a'],
  [0x24ea, 1, '0'],
  [0x2c7c, 1, 'j'],
  [0x2c7d, 1, 'V'],
  [0x3000, 1, ' '],
  [0xa7f1, 1, 'S'],
  [0xa7f2, 1, 'C'],
  [0xa7f3, 1, 'F'],
  [0xa7f4, 1, 'Q'],
  [0xfb29, 1, '+'],
  [0xfe10, 1, ','],
  [0xfe13, 2, ':'],
  [0xfe15, 1, '!'],
  [0xfe16, 1, '?'],
  [0xfe33, 1, '_'],
  [0xfe34, 1, '_'],
  [0xfe35, 2, '('],
  [0xfe37, 1, '{'],
  [0xfe38, 1, '}'],
  [0xfe47, 1, '['],
  [0xfe48, 1, ']'],
  [0xfe4d, 1, '_'],
  [0xfe4e, 1, '_'],
  [0xfe4f, 1, '_'],
  [0xfe50, 1, ','],
  [0xfe52, 1, '.'],
  [0xfe54, 1, ';'],
  [0xfe55, 1, ':'],
  [0xfe56, 1, '?'],
  [0xfe57, 1, '!'],
  [0xfe59, 2, '('],
  [0xfe5b, 1, '{'],
  [0xfe5c, 1, '}'],
  [0xfe5f, 1, '#'],
  [0xfe60, 1, '&'],
  [0xfe61, 2, '*'],
  [0xfe63, 1, '-'],
  [0xfe64, 1, '<'],
  [0xfe65, 1, '>'],
  [0xfe66, 1, '='],
  [0xfe68, 1, '\\'],
  [0xfe69, 2, '$'],
  [0xfe6b, 1, '@'],
  [0xff01, 94, '!'],
  [0x1d400, 26, 'A'],
  [0x1d41a, 26, 'a'],
  [0x1d434, 26, 'A'],
  [0x1d44e, 7, 'a'],
  [0x1d456, 18, 'i'],
  [0x1d468, 26, 'A'],
  [0x1d482, 26, 'a'],
  [0x1d49c, 1, 'A'],
  [0x1d49e, 2, 'C'],
  [0x1d4a2, 1, 'G'],
  [0x1d4a5, 2, 'J'],
  [0x1d4a9, 4, 'N'],
  [0x1d4ae, 8, 'S'],
  [0x1d4b6, 4, 'a'],
  [0x1d4bb, 1, 'f'],
  [0x1d4bd, 7, 'h'],
  [0x1d4c5, 11, 'p'],
  [0x1d4d0, 26, 'A'],
  [0x1d4ea, 26, 'a'],
  [0x1d504, 2, 'A'],
  [0x1d507, 4, 'D'],
  [0x1d50d, 8, 'J'],
  [0x1d516, 7, 'S'],
  [0x1d51e, 26, 'a'],
  [0x1d538, 2, 'A'],
  [0x1d53b, 4, 'D'],
  [0x1d540, 5, 'I'],
  [0x1d546, 1, 'O'],
  [0x1d54a, 7, 'S'],
  [0x1d552, 26, 'a'],
  [0x1d56c, 26, 'A'],
  [0x1d586, 26, 'a'],
  [0x1d5a0, 26, 'A'],
  [0x1d5ba, 26, 'a'],
  [0x1d5d4, 26, 'A'],
  [0x1d5ee, 26, 'a'],
  [0x1d608, 26, 'A'],
  [0x1d622, 26, 'a'],
  [0x1d63c, 26, 'A'],
  [0x1d656, 26, 'a'],
  [0x1d670, 26, 'A'],
  [0x1d68a, 26, 'a'],
  [0x1d7ce, 10, '0'],
  [0x1d7d8, 10, '0'],
  [0x1d7e2, 10, '0'],
  [0x1d7ec, 10, '0'],
  [0x1d7f6, 10, '0'],
]

/** Any character {@link foldCompatible} folds (a BMP one, or a surrogate pair of the alphanumerics). */
const FOLDED =
  /[\u00a0\u00aa\u00b2\u00b3\u00b9\u00ba\u017f\u02b0\u02b2\u02b3\u02b7\u02b8\u02e1-\u02e3\u037e\u1d2c\u1d2e\u1d30\u1d31\u1d33-\u1d3a\u1d3c\u1d3e-\u1d43\u1d47-\u1d49\u1d4d\u1d4f\u1d50\u1d52\u1d56-\u1d58\u1d5b\u1d62-\u1d65\u1d9c\u1da0\u1dbb\u1fef\u2000-\u200a\u2024\u202f\u205f\u2070\u2071\u2074-\u207a\u207c-\u208a\u208c-\u208e\u2090-\u2093\u2095-\u209c\u2102\u210a-\u210e\u2110-\u2113\u2115\u2119-\u211d\u2124\u2128\u212a\u212c\u212d\u212f-\u2131\u2133\u2134\u2139\u2145-\u2149\u2160\u2164\u2169\u216c-\u2170\u2174\u2179\u217c-\u217f\u2460-\u2468\u24b6-\u24ea\u2c7c\u2c7d\u3000\ua7f1-\ua7f4\ufb29\ufe10\ufe13-\ufe16\ufe33-\ufe38\ufe47\ufe48\ufe4d-\ufe50\ufe52\ufe54-\ufe57\ufe59-\ufe5c\ufe5f-\ufe66\ufe68-\ufe6b\uff01-\uff5e]|\ud835[\udc00-\udfff]/g

/** The folds by code point, built on first use (most applications never see one). */
let table: Map<number, string> | undefined

function tableOf(): Map<number, string> {
  if (table === undefined) {
    table = new Map()
    for (const [first, count, target] of RUNS) {
      for (let i = 0; i < count; i++) {
        table.set(first + i, String.fromCharCode(target.charCodeAt(0) + i))
      }
    }
  }
  return table
}

/** Whether `text` holds a character {@link foldCompatible} may fold. */
export function mayFold(text: string): boolean {
  FOLDED.lastIndex = 0
  return FOLDED.test(text)
}

/**
 * `text` with every character whose compatibility form is one ASCII character folded to it
 * (`﹤` to `<`, `𝐬` to `s`); the text itself where there is none.
 *
 * @example
 * foldCompatible('\ufe64script\ufe65') // '<script>'
 */
export function foldCompatible(text: string): string {
  if (!mayFold(text)) return text
  return text.replace(FOLDED, (found) => tableOf().get(found.codePointAt(0) as number) ?? found)
}
