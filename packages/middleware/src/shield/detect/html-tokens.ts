// A small HTML tag tokenizer: finds each start tag the way a browser's tokenizer would (a `<`
// followed by a letter), reads its name and attributes. Used by the XSS detector to decide whether
// markup in a value can run script, rather than matching `<script` over the text.

export interface HtmlAttribute {
  name: string
  value: string
}

export interface HtmlTag {
  name: string
  attributes: HtmlAttribute[]
}

const MAX_TAGS = 256
const MAX_ATTRIBUTES = 64

const isSpace = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '/'
const isLetter = (c: string | undefined) =>
  c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))

function readAttributes(text: string, start: number): [HtmlAttribute[], number] {
  const attributes: HtmlAttribute[] = []
  let i = start
  while (i < text.length && attributes.length < MAX_ATTRIBUTES) {
    while (isSpace(text[i])) i++
    if (i >= text.length || text[i] === '>') return [attributes, i + 1]
    let nameEnd = i + 1
    while (
      nameEnd < text.length &&
      !isSpace(text[nameEnd]) &&
      text[nameEnd] !== '=' &&
      text[nameEnd] !== '>'
    )
      nameEnd++
    const name = text.slice(i, nameEnd).toLowerCase()
    i = nameEnd
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++
    let value = ''
    if (text[i] === '=') {
      i++
      while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++
      const quote = text[i]
      if (quote === '"' || quote === "'" || quote === '`') {
        const end = text.indexOf(quote, i + 1)
        value = text.slice(i + 1, end === -1 ? text.length : end)
        i = end === -1 ? text.length : end + 1
      } else {
        let end = i
        while (end < text.length && !isSpace(text[end]) && text[end] !== '>') end++
        value = text.slice(i, end)
        i = end
      }
    }
    attributes.push({ name, value })
  }
  return [attributes, i]
}

/** The start tags in `text`, in order. Linear: each character is read once. */
export function htmlTags(text: string): HtmlTag[] {
  const tags: HtmlTag[] = []
  let i = text.indexOf('<')
  while (i !== -1 && i < text.length && tags.length < MAX_TAGS) {
    if (!isLetter(text[i + 1])) {
      i = text.indexOf('<', i + 1)
      continue
    }
    let nameEnd = i + 2
    while (
      nameEnd < text.length &&
      !isSpace(text[nameEnd]) &&
      text[nameEnd] !== '>' &&
      text[nameEnd] !== '<'
    )
      nameEnd++
    const name = text.slice(i + 1, nameEnd).toLowerCase()
    const [attributes, next] = text[nameEnd] === '<' ? [[], nameEnd] : readAttributes(text, nameEnd)
    tags.push({ name, attributes })
    i = text.indexOf('<', Math.max(next, i + 1))
  }
  return tags
}
