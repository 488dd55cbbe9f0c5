// Spectral's OWASP API Security ruleset, loaded from the installed package (a JavaScript ruleset,
// so nothing is fetched at run time). tools.test.ts runs it on the example's document and holds
// the findings to spectral-owasp-allow.json.
import owasp from '@stoplight/spectral-owasp-ruleset'

export default { extends: [owasp] }
