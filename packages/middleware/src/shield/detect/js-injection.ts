// Server-side JavaScript injection (Node.js `eval`, `vm`, serialize-to-function payloads) and the
// loops that hang an event loop. Reported as 'rce': code runs on the server.

const NODE = /_\$\$nd_func\$\$_|__js_function|\bnew\s+function\s*\(|\bfunction\s*\(\s*\)\s*\{[^}]{0,200}\brequire\s*\(|\bmodule\.exports\s*=|\bprocess\s*(?:\[\s*['"`]|\.\s*(?:env|mainmodule|binding|kill|exit|dlopen|spawn)\b)|\brequire\s*(?:\(\s*['"`]?(?:child_process|fs|net|vm|os|http)\b|\[)|\bchild_process\b|\bconsole\s*\.\s*(?:log|info|warn|error|debug)\s*(?:\.\s*(?:call|apply)\s*)?\(|\bglobal(?:this)?\s*\.\s*process\b|\bprocess\s*\.\s*spawn\s*\(|\bthis\.constructor\.constructor\b/
/** The same markers base64-encoded (`_$$ND_FUNC$$_` → `XyQkTkRfRlVOQyQk`, `while(true)` → `d2hpbGUodHJ1ZSk`). */
const ENCODED = /xyqktkrfrlvoqyqk|xyqkxhuwmdrlxhuwmdq0x0zvtkmkjf9c|d2hpbguodhj1zsk|d2hpbguoms|x19qc19mdw5jdglvbi/
const ENDLESS_LOOP = /\bwhile\s*\(\s*(?:!+\s*(?:false|0|\+0|-0|''|""|null|nan|undefined|\[\]|\{\}|!*'')|!!\s*\S{1,10}|true|-?\d+|-?infinity|new\s+\w+|string|number|object|array)\s*\)|\bfor\s*\(\s*;\s*;\s*\)/

export function jsInjection(lower: string): boolean {
  return NODE.test(lower) || ENCODED.test(lower) || ENDLESS_LOOP.test(lower)
}
