// Starts ReDoc. Served as a same-origin file so the page needs no inline script; the page passes
// its settings in a JSON data element, which the CSP does not treat as script.
//
// This file runs before the ReDoc bundle. The bundle injects stylesheets (perfect-scrollbar's
// CSS) while it loads, before ReDoc's own `nonce` option exists, so <style> elements created by
// document.createElement get the page's nonce here; the CSP can then stay free of
// 'unsafe-inline'.
;(() => {
  const configElement = document.getElementById('palisade-docs-config')
  const config = JSON.parse(configElement ? configElement.textContent : '{}')
  const nonce = config.nonce
  const createElement = document.createElement
  if (typeof nonce === 'string' && nonce !== '') {
    document.createElement = function createElementWithNonce(tagName, options) {
      const element = createElement.call(this, tagName, options)
      if (String(tagName).toLowerCase() === 'style') element.setAttribute('nonce', nonce)
      return element
    }
  }
  // Deferred scripts have all run by DOMContentLoaded: the bundle has loaded, so the wrapper is
  // removed and ReDoc's own nonce option takes over.
  document.addEventListener('DOMContentLoaded', () => {
    document.createElement = createElement
    const options = {
      // styled-components puts this nonce on every <style> element it creates.
      nonce: nonce,
      // Lists every components.schemas entry in its own section, not only those used inline.
      schemaDefinitionsTagName: 'Schemas',
      // Descriptions are Markdown that may carry HTML, and a document's text can come from
      // anywhere (generated, contributed, read from a database). ReDoc renders that HTML as it is
      // unless told the document is untrusted; then it passes it through DOMPurify, as Swagger UI
      // does. Without this a <meta http-equiv="refresh"> in a description navigates the page away
      // (the CSP blocks script, but not a refresh).
      untrustedSpec: true,
    }
    const start = (spec) => window.Redoc.init(spec, options, document.getElementById('redoc'))
    // ReDoc 2 lists the security schemes only where the description asks for them; ask, so the
    // page has an Authentication section whenever the document has schemes.
    fetch(config.specURL, { credentials: 'same-origin' })
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((spec) => start(withAuthentication(spec)))
      .catch(() => start(config.specURL))
  })

  function withAuthentication(spec) {
    const schemes = spec?.components?.securitySchemes
    if (!schemes || Object.keys(schemes).length === 0) return spec
    const info = spec.info || {}
    const description = typeof info.description === 'string' ? info.description : ''
    if (/security-definitions|<SecurityDefinitions/.test(description)) return spec
    const marker = '<!-- ReDoc-Inject: <security-definitions> -->'
    const withSection = `${description}\n\n# Authentication\n\n${marker}\n`
    return Object.assign({}, spec, { info: Object.assign({}, info, { description: withSection }) })
  }
})()
