// Scanner probes: the user agents of attack tools (sqlmap, nikto, nuclei…) and the paths that only
// a scanner asks an API for (/.env, /.git/config, /wp-login.php, /phpmyadmin, backup archives).
import type { InputKind, Paranoia, Subject } from './subject'

const TOOL_AGENTS =
  /\b(?:sqlmap|nikto|nuclei|nmap|masscan|zgrab|zmap|dirbuster|dirb|gobuster|feroxbuster|ffuf|wfuzz|wpscan|joomscan|droopescan|acunetix|netsparker|invicti|appscan|webinspect|nessus|openvas|qualys|w3af|arachni|skipfish|havij|pangolin|sqlninja|bbqsql|commix|xsstrike|dalfox|burp(?:suite|collaborator)?|zaproxy|owasp[ _-]?zap|paros|webscarab|vega|grabber|wapiti|whatweb|wafw00f|fimap|jaeles|httpx|katana|hydra|medusa|brutus|metasploit|msfconsole|morfeus|zmeu|blackwidow|nsauditor|crimscanner|netlab360|censys(?:inspect)?|l9explore|l9tcpid|fuzz faster u fool|sysscan|cgichk|nasl|(?:mozilla\/[\d.]{1,48} )?\(compatible; ?(?:nmap|nessus|zgrab))\b/
/**
 * The names a scanner probes for, each followed by the end of the path, a `/`, `?` or `#`. Two
 * patterns tried where a path segment starts (the named files, the named families), as recheck's
 * automaton could not decide them as one alternation behind `^\/(?:[^?]*\/)?`.
 */
export const PROBE_NAMES = [
  /(?:\.git\/(?:config|head|index|logs)|\.gitconfig|\.svn\/(?:entries|wc\.db)|\.hg\/|\.bzr\/|\.ds_store|\.htpasswd|\.htaccess|\.aws\/credentials|\.npmrc|\.dockerenv|wp-login\.php|xmlrpc\.php|phpmyadmin|pma|myadmin|phpinfo\.php|info\.php|server-status|server-info|cgi-bin\/|actuator(?:\/(?:env|heapdump|jolokia|gateway))?|jolokia|solr\/admin|hnap1|boaform|vendor\/phpunit|eval-stdin\.php|shell\.php|cmd\.php|c99\.php|r57\.php|config\.(?:php|json|yml|yaml)\.(?:bak|old|save|swp)|web\.config|id_rsa|\.ssh\/|backup\.(?:zip|tar|tar\.gz|tgz|sql|7z)|dump\.sql|database\.sql|db\.sql|sftp-config\.json|docker-compose\.ya?ml|\.well-known\/security\.txt\.bak)(?:$|[/?#])/y,
  /(?:\.env(?:\.[\w.-]+)?|wp-config\.php(?:\.\w+)?|adminer[\w.-]*\.php)(?:$|[/?#])/y,
]

/** A probed name at the start of the path or after any `/` before its query: `^\/(?:[^?]*\/)?(?:names)`. */
export function probePath(path: string): boolean {
  if (!path.startsWith('/')) return false
  const query = path.indexOf('?')
  const end = query === -1 ? path.length : query
  for (let slash = 0; slash !== -1 && slash < end; slash = path.indexOf('/', slash + 1)) {
    for (const name of PROBE_NAMES) {
      name.lastIndex = slash + 1
      if (name.test(path)) return true
    }
  }
  return false
}

export function detectScanner(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  if (kind === 'user-agent')
    return (
      TOOL_AGENTS.test(subject.lower) ||
      (paranoia === 2 &&
        /^(?:python-requests|go-http-client|curl|wget|libwww-perl|java\/|okhttp|scrapy)/.test(
          subject.lower,
        ))
    )
  if (kind === 'path') return probePath(subject.lower)
  return false
}
