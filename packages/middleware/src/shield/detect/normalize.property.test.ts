import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { htmlTags } from './html-tokens'
import { ATTACK_CATEGORIES, detect, type InputKind } from './index'
import {
  entityDecode,
  escapeDecode,
  foldForms,
  normalize,
  percentDecode,
  stripSqlComments,
} from './normalize'
import { sqlTokens } from './sql-tokens'

const anyText = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc
    .array(
      fc.constantFrom(
        '%',
        '25',
        '2',
        'e',
        'u',
        '&',
        '#',
        'x',
        ';',
        '\\',
        "'",
        '"',
        '<',
        '>',
        '/*',
        '*/',
        '--',
        '(',
        ')',
        'select',
        'or',
        '=',
        '1',
        ' ',
        '\uff1c',
        '\u0000',
        '${',
        '}',
      ),
      { maxLength: 80 },
    )
    .map((parts) => parts.join('')),
)
const kinds: InputKind[] = ['path', 'query', 'header', 'user-agent', 'cookie', 'body', 'name']

describe('normalize and the tokenizers, on any input', () => {
  it('never throw', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        normalize(text)
        stripSqlComments(text)
        sqlTokens(text.toLowerCase())
        htmlTags(text)
      }),
    )
  })

  it('detect never throws and answers a category or undefined, for every kind and paranoia', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.constantFrom(...kinds),
        fc.constantFrom(1 as const, 2 as const),
        (text, kind, paranoia) => {
          const found = detect(text, kind, { rules: new Set(ATTACK_CATEGORIES), paranoia })
          expect(found === undefined || ATTACK_CATEGORIES.includes(found)).toBe(true)
        },
      ),
    )
  })

  it('percentDecode undoes encodeURIComponent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(percentDecode(encodeURIComponent(text))).toBe(text)
      }),
    )
  })

  it('entityDecode undoes numeric character references', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (text) => {
        const encoded = [...text]
          .map((ch) => `&#x${(ch.codePointAt(0) as number).toString(16)};`)
          .join('')
        expect(entityDecode(encoded)).toBe(text)
      }),
    )
  })

  it('escapeDecode undoes \\u escapes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        const encoded = [...text]
          .map((ch) =>
            ch
              .split('')
              .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
              .join(''),
          )
          .join('')
        expect(escapeDecode(encoded)).toBe(text)
      }),
    )
  })

  it('foldForms is idempotent and maps fullwidth ASCII to ASCII', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(foldForms(foldForms(text))).toBe(foldForms(text))
      }),
    )
    expect(foldForms('\uff53\uff45\uff4c\uff45\uff43\uff54')).toBe('select')
  })

  it('normalize is idempotent on text with no encoding left (plain words and punctuation)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z0-9 .,;:!?'"()=<>/-]{0,100}$/), (text) => {
        expect(normalize(text)).toBe(text)
        expect(normalize(normalize(text))).toBe(normalize(text))
      }),
    )
  })

  it('normalize peels up to three layers of percent encoding', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 1, max: 3 }), (text, layers) => {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is dropped by normalize, so it is left out here
        const plain = text.replace(/[%&\\\uff01-\uff5e\u3000\u0000]/g, '')
        let encoded = plain
        for (let i = 0; i < layers; i++) encoded = encodeURIComponent(encoded)
        expect(normalize(encoded)).toBe(normalize(plain))
      }),
    )
  })

  it('stripSqlComments is idempotent on text without nested comment markers', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z '=]{0,20}(\/\*[a-z ]{0,10}\*\/[a-z '=]{0,20}){0,3}$/),
        (text) => {
          const once = stripSqlComments(text)
          expect(stripSqlComments(once)).toBe(once)
          expect(once.includes('/*')).toBe(false)
        },
      ),
    )
  })

  it('sqlTokens: quoted strings come back as their content, a string the input ends inside is open', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9 ]{0,30}$/), (content) => {
        expect(sqlTokens(`'${content}'`)).toEqual([{ type: 'string', value: content }])
        expect(sqlTokens(`'${content}`)).toEqual([{ type: 'string', value: content, open: true }])
      }),
    )
  })

  it('htmlTags: never more tags than `<` followed by a letter', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const starts = text.match(/<[a-zA-Z]/g)?.length ?? 0
        expect(htmlTags(text).length).toBeLessThanOrEqual(starts)
      }),
    )
  })
})
