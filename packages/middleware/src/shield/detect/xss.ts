// Cross-site scripting: markup that runs script (a script-capable tag, an event handler, a
// javascript: URL), found with the HTML tokenizer, plus the breakouts that need no tag (an event
// handler after a closed attribute quote, a javascript: URL as the whole value).
import { type HtmlTag, htmlTags } from './html-tokens'
import type { InputKind, Paranoia, Subject } from './subject'

const SCRIPT_TAGS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'meta',
  'link',
  'svg',
  'math',
  'xss',
  'style',
  'template',
  'isindex',
  'xml',
  'import',
  'vmlframe',
  'animate',
  'set',
  'handler',
  'listener',
  'portal',
  'noscript',
  'marquee',
])
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'data',
  'xlink:href',
  'background',
  'lowsrc',
  'dynsrc',
  'poster',
  'codebase',
  'values',
  'to',
  'from',
  'by',
  'srcdoc',
  'content',
])
const SCRIPT_URL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers skip control characters before a URL scheme
  /^[\s\u0000-\u001f]*(?:j[\s]*a[\s]*v[\s]*a[\s]*s[\s]*c[\s]*r[\s]*i[\s]*p[\s]*t|v[\s]*b[\s]*s[\s]*c[\s]*r[\s]*i[\s]*p[\s]*t|l[\s]*i[\s]*v[\s]*e[\s]*s[\s]*c[\s]*r[\s]*i[\s]*p[\s]*t)[\s]*:|^[\s]*data[\s]*:[\s]*(?:text\/html|image\/svg|application\/(?:x-)?(?:javascript|ecmascript|xhtml))/
const EVENT_HANDLER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers accept control characters before an attribute's =
  /(?:^|[\s"'`/;,+])on(?:abort|activate|afterprint|animation[a-z]{0,48}|auxclick|before[a-z]{1,48}|begin|blur|bounce|canplay[a-z]{0,48}|change|click|close|contextmenu|copy|cuechange|cut|dblclick|drag[a-z]{0,48}|drop|durationchange|end|ended|error|finish|focus[a-z]{0,48}|formdata|fullscreenchange|hashchange|input|invalid|key(?:down|press|up)|load[a-z]{0,48}|message|mouse[a-z]{1,48}|paste|pause|play[a-z]{0,48}|pointer[a-z]{1,48}|popstate|progress|readystatechange|repeat|reset|resize|scroll[a-z]{0,48}|search|seek[a-z]{0,48}|select[a-z]{0,48}|show|start|storage|submit|toggle|touch[a-z]{1,48}|transition[a-z]{1,48}|unload|volumechange|wheel|zoom)[\s\u0000-\u001f]{0,48}=/
/** Markup that is not HTML but still runs script or reads files: XXE, XInclude, VML, UTF-7, spaced-out tags. */
const OTHER_MARKUP =
  /<import|\(\s{0,8}!\s{0,8}\[\s{0,8}\]|!!\s{0,8}\[\s{0,8}\]|\bdocument\s{0,8}\)?\s{0,8}\[\s{0,8}['"]|\.\s{0,8}sort\s{0,8}\.\s{0,8}call\s{0,8}`|['"]\s{0,8}formaction\s{0,8}=|<!entity|!entity\s{1,16}%?\s{0,16}\w{1,48}\s{1,16}(?:system|public)|<xi:include|xsi:schemalocation|<\?import\b|vmlframe|\+ad[w4]-|<\s{0,16}[a-z]?[\s:]{0,48}(?:s\s{0,16}c\s{0,16}r\s{0,16}i\s{0,16}p\s{0,16}t|f\s{0,16}o\s{0,16}r\s{0,16}m|i\s{0,16}f\s{0,16}r\s{0,16}a\s{0,16}m\s{0,16}e|s\s{0,16}v\s{0,16}g|o\s{0,16}b\s{0,16}j\s{0,16}e\s{0,16}c\s{0,16}t|e\s{0,16}m\s{0,16}b\s{0,16}e\s{0,16}d|d\s{0,16}i\s{0,16}a\s{0,16}l\s{0,16}o\s{0,16}g)(?![a-z])|url\s{0,16}\(\s{0,16}['"]?\s{0,16}javascript|-moz-binding/
const JS_SINKS =
  /\bwindow\s{0,8}\[\s{0,8}['"]|\bdocument\s{0,8}\.\s{0,8}queryselector|\.textcontent\s{0,8}=|\.sort\s{0,8}\.\s{0,8}call|\b(?:document\s{0,16}(?:\.\s{0,16}|\[\s{0,16}['"])(?:cookie|domain|write|location|createelement|body)|set(?:timeout|interval)\s{0,16}\(|\b(?:btoa|atob)\s{0,16}\(|\breflect\s{0,16}\.|\bself\s{0,16}\[\s{0,16}['"]|\(\s{0,16}!\s{0,16}\[\s{0,16}\]|!!\s{0,16}\[\s{0,16}\]|\.call\s{0,16}`|window\s{0,16}\.\s{0,16}(?:location|name|open)|\.innerhtml\b|\.outerhtml\b|string\s{0,16}\.\s{0,16}fromcharcode|\.parentnode\b|-moz-binding|:\s{0,16}expression\s{0,16}\()|\b(?:alert|prompt|confirm)\s{0,16}(?:\(|`)|<!\[cdata\[|<!entity|\bconstructor\s{0,16}\.\s{0,16}constructor\s{0,16}\(|\bsrcdoc\s{0,16}=/

function dangerousTag(tag: HtmlTag): boolean {
  if (SCRIPT_TAGS.has(tag.name)) return true
  for (const attribute of tag.attributes) {
    if (/^on[a-z]{3,}$/.test(attribute.name)) return true
    if (URL_ATTRIBUTES.has(attribute.name) && SCRIPT_URL.test(attribute.value.toLowerCase()))
      return true
    if (
      attribute.name === 'style' &&
      /expression\s{0,16}\(|url\s{0,16}\(\s{0,16}['"]?\s{0,16}javascript:|-moz-binding|behavior\s{0,16}:/.test(
        attribute.value.toLowerCase(),
      )
    )
      return true
  }
  return false
}

/** JavaScript comments out of the way: `document/*x*\/.cookie`. */
const stripJsComments = (text: string) =>
  text.includes('/*') ? text.replace(/\/\*[^*/]{0,200}\*\//g, '') : text

export function detectXss(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  const lower = subject.lower
  if (OTHER_MARKUP.test(stripJsComments(lower))) return true
  if (kind === 'path' || kind === 'user-agent') {
    if (EVENT_HANDLER.test(lower)) return true
    if (!lower.includes('<')) return false
  }
  if (lower.includes('<')) {
    for (const tag of htmlTags(subject.text)) if (dangerousTag(tag)) return true
    if (paranoia === 2 && htmlTags(subject.text).length > 0) return true
  }
  if (kind === 'path') return false
  if (SCRIPT_URL.test(lower)) return true
  if (EVENT_HANDLER.test(lower)) return true
  return kind !== 'user-agent' && JS_SINKS.test(stripJsComments(lower))
}
