// Server-side JavaScript injection (Node.js `eval`, `vm`, serialize-to-function payloads) and the
// loops that hang an event loop. Reported as 'rce': code runs on the server.

const NODE =
  /_\$\$nd_func\$\$_|__js_function|\bnew\s{1,16}function\s{0,16}\(|\bfunction\s{0,16}\(\s{0,16}\)\s{0,16}\{[^{}]{0,48}\brequire\s{0,16}\(|\bmodule\.exports\s{0,16}=|\bprocess\s{0,16}(?:\[\s{0,16}['"`]|\.\s{0,16}(?:env|mainmodule|binding|kill|exit|dlopen|spawn)\b)|\brequire\s{0,16}(?:\(\s{0,16}['"`]?(?:child_process|fs|net|vm|os|http)\b|\[)|\bchild_process\b|\bconsole\s{0,16}\.\s{0,16}(?:log|info|warn|error|debug)\s{0,16}(?:\.\s{0,16}(?:call|apply)\s{0,16})?\(|\bglobal(?:this)?\s{0,16}\.\s{0,16}process\b|\bprocess\s{0,16}\.\s{0,16}spawn\s{0,16}\(|\bthis\.constructor\.constructor\b|\b(?:console|process)\s{0,8}\[|^\s{0,8}function\s{0,8}\(\s{0,8}\)\s{0,8}\{/
/** The same markers base64-encoded (`_$$ND_FUNC$$_` → `XyQkTkRfRlVOQyQk`, `while(true)` → `d2hpbGUodHJ1ZSk`). */
const ENCODED =
  /xhuwmdc3xhuwmdy4awxl|xyqktkrfrlvoqyqk|xyqkxhuwmdrlxhuwmdq0x0zvtkmkjf9c|d2hpbguodhj1zsk|d2hpbguoms|x19qc19mdw5jdglvbi/
const ENDLESS_LOOP =
  /\bwhile\s{0,16}\(\s{0,16}(?:!{1,8}\s{0,16}(?:false|0|\+0|-0|''|""|``|null|nan|undefined|\[\]|\{\}|!{0,8}'')|!!\s{0,16}\S{1,10}|true|[-+]?\d{1,16}|[-+]?infinity|this|\(\s{0,8}true\s{0,8}\)|new\s{1,16}\w{1,48}|string|number|object|array)\s{0,16}\)|\bfor\s{0,16}\(\s{0,16};\s{0,16};\s{0,16}\)/

export function jsInjection(lower: string): boolean {
  return NODE.test(lower) || ENCODED.test(lower) || ENDLESS_LOOP.test(lower)
}
