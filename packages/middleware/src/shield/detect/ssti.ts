// Server-side template injection: template expressions that evaluate code (Jinja2, Twig, Freemarker,
// Velocity, Thymeleaf, ERB, Handlebars), told apart from a brace in text by what is inside.
import type { InputKind, Paranoia, Subject } from './subject'

/** `{{7*7}}`, `${7*7}`, `#{7*7}`, `<%= 7*7 %>`: arithmetic between numbers inside a template delimiter. */
const PROBE =
  /(?:\{\{|\$\{|#\{|\{%|<%=?|\[\[|\*\{|@\{)\s*\d+\s*[*+/-]\s*\d+\s*(?:\}\}|\}|%\}|%>|\]\])/
const CODE =
  /(?:\{\{|\{%|\$\{|#\{|<%=?|\*\{)[^}%{$#<*]{0,48}?(?:__class__|__mro__|__subclasses__|__globals__|__builtins__|__import__|__init__|\bconfig\.items|\bself\._|\blipsum\b|\bcycler\b|\bjoiner\b|\brequest\.application|\bget_flashed_messages|\burl_for\b|\bfreemarker\.template|\?new\s{0,16}\(|\bobjectconstructor|\bexecute\s{0,16}\(|\bt\s{0,16}\(\s{0,16}java\.lang|\bgetclass\s{0,16}\(|\bforname\s{0,16}\(|\bsystem\s{0,16}\(|\bexec\s{0,16}\(|\bpopen\s{0,16}\(|\beval\s{0,16}\(|\bconstructor\b|\bprocess\.(?:mainmodule|binding|env)|\brequire\s{0,16}\(|\bchild_process|_self\.env|registerundefinedfiltercallback|\bfile_get_contents|\bfopen\s{0,16}\(|\bspawn\s{0,16}\()/
const DIRECTIVE =
  /<#assign\b|<#include\b|#set\s{0,16}\(\s{0,16}\$|#foreach\s{0,16}\(|\$class\.inspect|\{php\}|\{\/php\}|\{%\s{0,16}(?:import|include|extends|set|for|macro)\b/

export function detectSsti(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  if (kind === 'path' || kind === 'user-agent') return false
  const lower = subject.lower
  if (!/[{%#<[*@]/.test(lower)) return false
  if (PROBE.test(lower) || CODE.test(lower) || DIRECTIVE.test(lower)) return true
  return paranoia === 2 && /\{\{[^{}]{1,48}\}\}|\$\{[^${}]{1,48}\}/.test(lower)
}
