// Cross-site scripting: markup that runs script (a script-capable tag, an event handler, a
// javascript: URL), found with the HTML tokenizer, plus the breakouts that need no tag (an event
// handler after a closed attribute quote, a javascript: URL as the whole value).
import { type HtmlTag, htmlTags } from './html-tokens'
import type { InputKind } from './index'
import type { Paranoia, Subject } from './subject'

const SCRIPT_TAGS = new Set([
  'script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link',
  'svg', 'math', 'xss', 'style', 'template', 'isindex', 'xml', 'import', 'vmlframe', 'animate',
  'set', 'handler', 'listener', 'portal', 'noscript', 'marquee',
])
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'background', 'lowsrc', 'dynsrc', 'poster', 'codebase', 'values', 'to', 'from', 'by', 'srcdoc', 'content'])
const SCRIPT_URL = /^[\s\u0000-\u001f]*(?:j[\s]*a[\s]*v[\s]*a[\s]*s[\s]*c[\s]*r[\s]*i[\s]*p[\s]*t|v[\s]*b[\s]*s[\s]*c[\s]*r[\s]*i[\s]*p[\s]*t|l[\s]*i[\s]*v[\s]*e[\s]*s[\s]*c[\s]*r[\s]*i[\s]*p[\s]*t)[\s]*:|^[\s]*data[\s]*:[\s]*(?:text\/html|image\/svg|application\/(?:x-)?(?:javascript|ecmascript|xhtml))/
const EVENT_HANDLER = /(?:^|[\s"'`\/;,+])on(?:abort|activate|afterprint|animation[a-z]*|auxclick|before[a-z]+|begin|blur|bounce|canplay[a-z]*|change|click|close|contextmenu|copy|cuechange|cut|dblclick|drag[a-z]*|drop|durationchange|end|ended|error|finish|focus[a-z]*|formdata|fullscreenchange|hashchange|input|invalid|key(?:down|press|up)|load[a-z]*|message|mouse[a-z]+|paste|pause|play[a-z]*|pointer[a-z]+|popstate|progress|readystatechange|repeat|reset|resize|scroll[a-z]*|search|seek[a-z]*|select[a-z]*|show|start|storage|submit|toggle|touch[a-z]+|transition[a-z]+|unload|volumechange|wheel|zoom)[\s\u0000-\u001f]*=/
/** Markup that is not HTML but still runs script or reads files: XXE, XInclude, VML, UTF-7, spaced-out tags. */
const OTHER_MARKUP = /<!entity|!entity\s+%?\s*\w+\s+(?:system|public)|<xi:include|xsi:schemalocation|<\?import\b|vmlframe|\+ad[w4]-|<\s*[a-z]?[\s:]*(?:s\s*c\s*r\s*i\s*p\s*t|f\s*o\s*r\s*m|i\s*f\s*r\s*a\s*m\s*e|s\s*v\s*g|o\s*b\s*j\s*e\s*c\s*t|e\s*m\s*b\s*e\s*d)(?![a-z])|url\s*\(\s*['"]?\s*javascript|-moz-binding/
const JS_SINKS = /\b(?:document\s*(?:\.\s*|\[\s*['"])(?:cookie|domain|write|location|createelement|body)|set(?:timeout|interval)\s*\(|\b(?:btoa|atob)\s*\(|\breflect\s*\.|\bself\s*\[\s*['"]|\(\s*!\s*\[\s*\]|!!\s*\[\s*\]|\.call\s*`|window\s*\.\s*(?:location|name|open)|\.innerhtml\b|\.outerhtml\b|string\s*\.\s*fromcharcode|\.parentnode\b|-moz-binding|expression\s*\()|\b(?:alert|prompt|confirm)\s*(?:\(|`)|<!\[cdata\[|<!entity|\bconstructor\s*\.\s*constructor\s*\(|\bsrcdoc\s*=/

function dangerousTag(tag: HtmlTag): boolean {
  if (SCRIPT_TAGS.has(tag.name)) return true
  for (const attribute of tag.attributes) {
    if (/^on[a-z]{3,}$/.test(attribute.name)) return true
    if (URL_ATTRIBUTES.has(attribute.name) && SCRIPT_URL.test(attribute.value.toLowerCase())) return true
    if (attribute.name === 'style' && /expression\s*\(|url\s*\(\s*['"]?\s*javascript:|-moz-binding|behavior\s*:/.test(attribute.value.toLowerCase())) return true
  }
  return false
}

/** JavaScript comments out of the way: `document/*x*\/.cookie`. */
const stripJsComments = (text: string) => (text.includes('/*') ? text.replace(/\/\*[^*]{0,200}\*+\//g, '') : text)

export function detectXss(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  const lower = subject.lower
  if (kind === 'path' || kind === 'user-agent') {
    if (EVENT_HANDLER.test(lower)) return true
    if (!lower.includes('<')) return false
  }
  if (OTHER_MARKUP.test(lower)) return true
  if (lower.includes('<')) {
    for (const tag of htmlTags(subject.text)) if (dangerousTag(tag)) return true
    if (paranoia === 2 && htmlTags(subject.text).length > 0) return true
  }
  if (kind === 'path') return false
  if (SCRIPT_URL.test(lower)) return true
  if (EVENT_HANDLER.test(lower)) return true
  return kind !== 'path' && kind !== 'user-agent' && JS_SINKS.test(stripJsComments(lower))
}
