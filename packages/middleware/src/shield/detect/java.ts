// Java attacks: JNDI lookups (Log4Shell, with the nested-lookup obfuscations), the classes and
// gadget chains of deserialization and expression-language attacks, serialized Java objects, and
// OGNL / Spring class-loader manipulation.
import type { InputKind, Paranoia, Subject } from './subject'

/** `${jndi:` once nested lookups (`${lower:j}`, `${::-n}`) are folded to their letters. */
const JNDI =
  /\$\{\s{0,16}jndi\s{0,16}:|\$\{\s{0,16}(?:ctx|env|sys|main|bundle|java|base64|date|docker|k8s|log4j|marker|spring|upper|lower|web|sd)\s{0,16}:[^${}]{0,48}\}/
const NESTED_LOOKUP =
  /\$\{[^${}]{0,40}:-([^${}]{0,8})\}|\$\{(?:lower|upper)\s{0,16}:\s{0,16}([^${}]{0,8})\}/g
const CLASSES =
  /\b(?:java\.(?:lang|io|util|net|nio|beans|rmi|security|sql|awt)\.[a-z]|javax\.(?:script|naming|management|el|xml|faces|servlet)\b|org\.(?:apache\.(?:commons|xalan|tomcat|struts2?|catalina|logging|log4j|bcel|velocity|wicket|shiro|naming|jasper)|springframework|omg\.corba|codehaus\.groovy|mozilla\.javascript|hibernate|jboss|python\.core|eclipse\.jetty)\b|com\.(?:sun\.(?:org\.apache|rowset|jndi|management|script)|opensymphony\.xwork2|mchange\.v2|thoughtworks\.xstream|alibaba\.fastjson|fasterxml\.jackson|ibm\.websphere)\b|(?:scriptenginemanager|invokertransformer|instantiatetransformer|chainedtransformer|constanttransformer|clonetransformer|forclosure|instantiatefactory|prototypeclonefactory|prototypeserializationfactory|whileclosure|templatesimpl|annotationinvocationhandler|badattributevalueexpexception|xsltc|jdbcrowsetimpl|unicastref|remoteobjectinvocationhandler)\b)/
/** Gadget calls and OGNL, one pattern per shape: recheck's automaton decides each (the one alternation it could not). */
export const GADGETS = [
  /\b(?:class\.module\.classloader|class\.classloader|@java\.lang|#_memberaccess|ognlcontext|xwork\.methodaccessor)/,
  /\bruntime\s*\.\s*getruntime\s*\(/,
  /\bnew\s+processbuilder|\bprocessbuilder\s*\(/,
  /\b\.exec\s*\(\s*["']/,
  /\b\.(?:getmethod|newinstance)\s*\(/,
  /\b(?:getclass\s*\(\s*\)\s*\.\s*forname|class\s*\.\s*forname)/,
  /\b(?:#context\s*\[|\(#[a-z_]+\s*=)/,
]
/**
 * `Runtime` and `ProcessBuilder` are words of prose too (a film's runtime, the Node.js runtime): a
 * class only beside `java.`, an unmarshaller or base64 data in the same value (the idea of CRS
 * 944110), or beside a gadget's name (which CLASSES finds alone).
 */
const PROCESS_CLASS = /\b(?:runtime|processbuilder)\b/
const PROCESS_CONTEXT = /java\.|unmarshaller|base64data/
/** Serialized Java objects: the stream magic, raw, hex or base64. */
/** The Java serialization stream magic, raw bytes. */
const STREAM_MAGIC = '\xac\xed\x00\x05'
const SERIALIZED = /\baced0005|\bro0ab|\bh4siaaaaaaaa/

function foldLookups(lower: string): string {
  let current = lower
  for (let round = 0; round < 3 && current.includes('${'); round++) {
    const next = current.replace(NESTED_LOOKUP, (_, a?: string, b?: string) => a ?? b ?? '')
    if (next === current) break
    current = next
  }
  return current
}

export function detectJava(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  const lower = subject.lower
  if (lower.includes('${') && JNDI.test(foldLookups(lower))) return true
  if (kind === 'path') return false
  if (lower.includes(STREAM_MAGIC) || SERIALIZED.test(lower) || GADGETS.some((p) => p.test(lower)))
    return true
  if (CLASSES.test(lower)) return true
  if (PROCESS_CLASS.test(lower) && PROCESS_CONTEXT.test(lower)) return true
  return (
    (kind === 'name' && /\.jspx?\s*$/.test(lower)) ||
    (paranoia === 2 && /\bjava\.[a-z]+\.[a-z]/.test(lower))
  )
}
