// Starts Swagger UI. Served as a same-origin file so the page needs no inline script; the page
// passes its settings in a JSON data element, which the CSP does not treat as script.
;(() => {
  const configElement = document.getElementById('palisade-docs-config')
  const config = JSON.parse(configElement ? configElement.textContent : '{}')
  const SwaggerUIBundle = window.SwaggerUIBundle
  window.ui = SwaggerUIBundle({
    url: config.specURL,
    dom_id: '#swagger-ui',
    deepLinking: true,
    // null turns off the badge that would send the spec to a remote validator.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  })
})()
