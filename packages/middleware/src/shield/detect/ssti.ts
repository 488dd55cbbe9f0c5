// Server-side template injection: template expressions that evaluate code (Jinja2, Twig, Freemarker,
// Velocity, Thymeleaf, ERB, Handlebars), told apart from a brace in text by what is inside.
import type { InputKind } from './index'
import type { Paranoia, Subject } from './subject'

/** `{{7*7}}`, `${7*7}`, `#{7*7}`, `<%= 7*7 %>`: arithmetic between numbers inside a template delimiter. */
const PROBE = /(?:\{\{|\$\{|#\{|\{%|<%=?|\[\[|\*\{|@\{)\s*\d+\s*[*+\/-]\s*\d+\s*(?:\}\}|\}|%\}|%>|\]\])/
const CODE = /(?:\{\{|\{%|\$\{|#\{|<%=?|\*\{)[^}%]{0,200}?(?:__class__|__mro__|__subclasses__|__globals__|__builtins__|__import__|__init__|\bconfig\.items|\bself\._|\blipsum\b|\bcycler\b|\bjoiner\b|\brequest\.application|\bget_flashed_messages|\burl_for\b|\bfreemarker\.template|\?new\s*\(|\bobjectconstructor|\bexecute\s*\(|\bt\s*\(\s*java\.lang|\bgetclass\s*\(|\bforname\s*\(|\bsystem\s*\(|\bexec\s*\(|\bpopen\s*\(|\beval\s*\(|\bconstructor\b|\bprocess\.(?:mainmodule|binding|env)|\brequire\s*\(|\bchild_process|_self\.env|registerundefinedfiltercallback|\bfile_get_contents|\bfopen\s*\(|\bspawn\s*\()/
const DIRECTIVE = /<#assign\b|<#include\b|#set\s*\(\s*\$|#foreach\s*\(|\$class\.inspect|\{php\}|\{\/php\}|\{%\s*(?:import|include|extends|set|for|macro)\b/

export function detectSsti(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  if (kind === 'path' || kind === 'user-agent') return false
  const lower = subject.lower
  if (!/[{%#<\[*@]/.test(lower)) return false
  if (PROBE.test(lower) || CODE.test(lower) || DIRECTIVE.test(lower)) return true
  return paranoia === 2 && /\{\{[^}]{1,100}\}\}|\$\{[^}]{1,100}\}/.test(lower)
}
