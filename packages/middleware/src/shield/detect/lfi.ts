// Path traversal and local file inclusion: a `..` segment in any of its spellings, and the files
// an attacker reads (OS accounts, keys, configuration, process information).
import type { InputKind, Paranoia, Subject } from './subject'

/** `../`, `..\`, `.../`, `..;/` where the dots begin a segment. */
const TRAVERSAL = /(?:^|[/\\;=:'"\s])\.{2,3}[/\\;]/
/** CRS's spelled-out encodings (`0x2e` for a dot, `0x5c` for a backslash). */
const HEX_TRAVERSAL = /(?:0x2e|\.)(?:0x2e|\.)?(?:0x2f|0x5c|[/\\])|0x5c0x2e/
/** The files an attacker reads, one pattern per family: recheck's automaton decides each (the one alternation it could not). */
export const OS_FILES = [
  /(?:^|[/\\\s'"=:])etc[/\\](?:passwd|shadow|group|hosts|issue|master\.passwd|subuid|subgid|sudoers|crontab|fstab|motd|mysql|httpd|apache2|nginx|ssh|security|pam\.d|environment|profile|hostname|resolv\.conf)/,
  /(?:^|[/\\\s'"=:])(?:proc[/\\](?:self|version|cmdline|environ|interrupts|cpuinfo|meminfo|mounts|net|\d)|sys[/\\](?:class|kernel|devices|power|firmware))/,
  /(?:^|[/\\\s'"=:])(?:(?:boot|win|system)\.ini|windows[/\\](?:system32|win\.ini|repair)|winnt[/\\]|\.ssh[/\\]|id_(?:rsa|dsa|ecdsa|ed25519)\b|authorized_keys)/,
  /(?:^|[/\\\s'"=:])(?:\.(?:bash_|zsh_|mysql_|psql_)?history\b|\.htaccess|\.htpasswd|\.git[/\\]|\.svn[/\\]|\.docker[/\\]|\.aws[/\\]|\.kube[/\\])/,
  /(?:^|[/\\\s'"=:])(?:web\.config|wp-config\.php|httpd\.conf|php\.ini|var[/\\]log[/\\]|usr[/\\]local[/\\]apps)/,
  /(?:^|[/\\\s'"=:])\.env(?:\.[a-z]+)?$/,
]
/** Backups and dumps fetched by name. */
const BACKUP_FILE =
  /\.(?:sql|bak|old|orig|swp|save|dump|backup)(?:\.(?:zip|gz|tgz|tar|7z|bz2|rar))?$|(?:^|[/\\])[\w.-]*\.(?:log)$/
/** Files of AI coding assistants and tool state that a server never serves. */
const TOOL_DIRS =
  /(?:^|\/)(?:\.(?:claude|cursor|continue|aider|roo|zed|cline|kiro|windsurf|rovodev|codex|opencode|a0proj|plandex|fabric|n8n|junie|aiignore|cursorignore|vscode|idea|github|gitlab|circleci|terraform)(?:\/|$)|@fs\/|@id\/|node_modules\/\.cache)/

/** `../` twice, or once in a backslash / `...` / `..;` spelling; a single leading `../x` is a relative link (paranoia 2 flags it). */
function traversal(lower: string, paranoia: Paranoia): boolean {
  const first = TRAVERSAL.exec(lower)
  if (first === null) return false
  if (paranoia === 2 || !/^\.\.\/$/.test(first[0].replace(/^[^.]*/, ''))) return true
  return TRAVERSAL.test(lower.slice(first.index + first[0].length - 1)) || first.index > 0
}

export function detectLfi(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  const lower = subject.lower
  if (traversal(lower, paranoia) || (HEX_TRAVERSAL.test(lower) && /0x(?:2e|2f|5c)/.test(lower)))
    return true
  if (OS_FILES.some((p) => p.test(lower))) return true
  if (kind === 'path')
    return (
      TOOL_DIRS.test(lower) ||
      (BACKUP_FILE.test(lower) && !lower.endsWith('.log')) ||
      /\/wp-content\/[\w.-]*\.log$/.test(lower)
    )
  if (kind === 'query' || kind === 'body' || kind === 'cookie') {
    if (/\.(?:sql|bak|dump)(?:\.(?:zip|gz|tgz|tar|7z))?$/.test(lower) && !/\s/.test(lower))
      return true
    if (paranoia === 2 && /^\.{2}$|(?:^|[/\\])\.\.(?:[/\\]|$)/.test(lower)) return true
  }
  return false
}
