// Decoding as an attacker encodes: the detectors see one canonical text whatever the wrapping.
// Every step is a single left-to-right pass, and the passes repeat a bounded number of times (a
// payload encoded three times over is decoded; a fourth layer is left as it is), so the whole is
// linear in the input.

import { foldCompatible, mayFold } from './compatibility-forms'

/** How many layers of encoding are peeled (percent of percent of percent…). */
const MAX_ROUNDS = 3

const HEX = /^[0-9a-fA-F]$/

function hexAt(text: string, start: number, length: number): number {
  if (start + length > text.length) return -1
  let n = 0
  for (let i = start; i < start + length; i++) {
    const ch = text[i] as string
    if (!HEX.test(ch)) return -1
    n = n * 16 + Number.parseInt(ch, 16)
  }
  return n
}

/** Lenient UTF-8: valid and overlong sequences (%c0%ae for '.') become their code point, any other byte its Latin-1 character. */
function decodeBytes(bytes: number[]): string {
  let out = ''
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i] as number
    const need = b >= 0xf0 && b < 0xf8 ? 3 : b >= 0xe0 ? (b < 0xf0 ? 2 : 0) : b >= 0xc0 ? 1 : 0
    let ok = need > 0 && i + need < bytes.length
    let cp = need === 3 ? b & 0x07 : need === 2 ? b & 0x0f : b & 0x1f
    for (let k = 1; ok && k <= need; k++) {
      const next = bytes[i + k]
      if (next === undefined || (next & 0xc0) !== 0x80) ok = false
      else cp = (cp << 6) | (next & 0x3f)
    }
    if (ok && cp <= 0x10ffff) {
      out += String.fromCodePoint(cp)
      i += need + 1
    } else {
      out += String.fromCharCode(b)
      i += 1
    }
  }
  return out
}

/** `%41`, `%u0041` and runs of `%xx` bytes read as UTF-8. A malformed escape stays as it is. */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text
  let out = ''
  let bytes: number[] = []
  let i = 0
  while (i < text.length) {
    if (text[i] === '%') {
      const byte = hexAt(text, i + 1, 2)
      if (byte !== -1) {
        bytes.push(byte)
        i += 3
        continue
      }
      if ((text[i + 1] === 'u' || text[i + 1] === 'U') && hexAt(text, i + 2, 4) !== -1) {
        if (bytes.length > 0) out += decodeBytes(bytes)
        bytes = []
        out += String.fromCharCode(hexAt(text, i + 2, 4))
        i += 6
        continue
      }
    }
    if (bytes.length > 0) out += decodeBytes(bytes)
    bytes = []
    out += text[i]
    i += 1
  }
  if (bytes.length > 0) out += decodeBytes(bytes)
  return out
}

const NAMED_ENTITIES: Record<string, string> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  tab: '\t',
  newline: '\n',
  colon: ':',
  semi: ';',
  sol: '/',
  bsol: '\\',
  lpar: '(',
  rpar: ')',
  lsqb: '[',
  rsqb: ']',
  lbrack: '[',
  rbrack: ']',
  lcub: '{',
  rcub: '}',
  lbrace: '{',
  rbrace: '}',
  period: '.',
  comma: ',',
  excl: '!',
  quest: '?',
  num: '#',
  dollar: '$',
  percnt: '%',
  equals: '=',
  plus: '+',
  grave: '`',
  hat: '^',
  vert: '|',
  verbar: '|',
  ast: '*',
  midast: '*',
  lowbar: '_',
  dash: '-',
}

// A bounded digit count keeps each match short; the semicolon is optional, as browsers accept.
const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,7})|#([0-9]{1,8})|([a-zA-Z]{2,8}));?/g

/** HTML character references: numeric (decimal, hex, with or without `;`) and the named ones that spell code punctuation. */
export function entityDecode(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(ENTITY, (match, hex?: string, dec?: string, name?: string) => {
    const cp =
      hex !== undefined
        ? Number.parseInt(hex, 16)
        : dec !== undefined
          ? Number.parseInt(dec, 10)
          : -1
    if (cp >= 0) return cp <= 0x10ffff ? String.fromCodePoint(cp) : match
    return NAMED_ENTITIES[(name as string).toLowerCase()] ?? match
  })
}

/** JavaScript / JSON / C escapes: `\u0041`, `\u{41}`, `\x41`. */
export function escapeDecode(text: string): string {
  if (!text.includes('\\')) return text
  let out = ''
  let i = 0
  while (i < text.length) {
    if (text[i] === '\\') {
      const next = text[i + 1]
      if (next === 'u' || next === 'U') {
        const cp = hexAt(text, i + 2, 4)
        if (cp !== -1) {
          out += String.fromCharCode(cp)
          i += 6
          continue
        }
        if (text[i + 2] === '{') {
          const close = text.indexOf('}', i + 3)
          const cp2 = close !== -1 && close - i - 3 <= 6 ? hexAt(text, i + 3, close - i - 3) : -1
          if (cp2 !== -1 && cp2 <= 0x10ffff) {
            out += String.fromCodePoint(cp2)
            i = close + 1
            continue
          }
        }
      } else if (next === 'x' || next === 'X') {
        const byte = hexAt(text, i + 2, 2)
        if (byte !== -1) {
          out += String.fromCharCode(byte)
          i += 4
          continue
        }
      }
    }
    out += text[i]
    i += 1
  }
  return out
}

/**
 * Characters whose compatibility form is one ASCII character folded to it (fullwidth `＜`, small
 * `﹤`, superscript `⁽`, mathematical `𝐬`…: compatibility-forms.ts), NUL bytes dropped.
 */
export function foldForms(text: string): string {
  const folded = foldCompatible(text)
  return folded.includes('\u0000') ? folded.replaceAll('\u0000', '') : folded
}

/** One round of every decoding. */
function decodeOnce(text: string): string {
  return foldForms(escapeDecode(entityDecode(percentDecode(text))))
}

/** Nothing the decoders of `% & \\` and NUL would change (compatibility forms: mayFold). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the characters decoding drops
const ENCODED = /[%&\\\u0000]/

/**
 * Whether `text` holds a character some decoder below reads: `% & \\`, a compatibility form
 * (fullwidth and the others compatibility-forms.ts folds), a NUL byte. False proves
 * `normalize(text) === text`.
 */
export function mayNeedDecoding(text: string): boolean {
  return ENCODED.test(text) || mayFold(text)
}

/**
 * The text an attacker meant: percent (up to three layers), HTML entities, `\u`/`\x` escapes
 * decoded, compatibility forms folded (fullwidth `＜`, small `﹤`…), NUL bytes dropped. Idempotent for text with at most three layers.
 */
export function normalize(text: string): string {
  if (!mayNeedDecoding(text)) return text
  let current = foldForms(text)
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = decodeOnce(current)
    if (next === current) return next
    current = next
  }
  return current
}

/**
 * SQL comments as the database reads them: `/* … *\/` becomes a space, a MySQL version comment
 * (`/*!50000 select*\/`) keeps its code, `-- ` and `#` end the statement text.
 */
export function stripSqlComments(text: string): string {
  if (!text.includes('/*')) return text
  let out = ''
  let i = 0
  while (i < text.length) {
    if (text[i] === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end === -1 ? text.length : end
      if (text[i + 2] === '!') {
        let start = i + 3
        while (start < stop && text.charCodeAt(start) >= 48 && text.charCodeAt(start) <= 57) start++
        out += ` ${text.slice(start, stop)} `
      } else out += ' '
      i = end === -1 ? text.length : end + 2
      continue
    }
    out += text[i]
    i++
  }
  return out
}
