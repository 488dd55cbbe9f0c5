import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"@palisade/middleware/cloudflare","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/cloudflare/index.md","filePath":"api/middleware/cloudflare/index.md"}');
const _sfc_main = { name: "api/middleware/cloudflare/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="palisade-middleware-cloudflare" tabindex="-1">@palisade/middleware/cloudflare <a class="header-anchor" href="#palisade-middleware-cloudflare" aria-label="Permalink to &quot;@palisade/middleware/cloudflare&quot;">​</a></h1><p>Durable Object stores for Cloudflare Workers.</p><h2 id="classes" tabindex="-1">Classes <a class="header-anchor" href="#classes" aria-label="Permalink to &quot;Classes&quot;">​</a></h2><ul><li><a href="./classes/DurableObjectApiKeyStore.html">DurableObjectApiKeyStore</a></li><li><a href="./classes/DurableObjectConcurrencyStore.html">DurableObjectConcurrencyStore</a></li><li><a href="./classes/DurableObjectIdempotencyStore.html">DurableObjectIdempotencyStore</a></li><li><a href="./classes/DurableObjectNonceStore.html">DurableObjectNonceStore</a></li><li><a href="./classes/DurableObjectRateLimitStore.html">DurableObjectRateLimitStore</a></li><li><a href="./classes/DurableObjectSessionStore.html">DurableObjectSessionStore</a></li><li><a href="./classes/PalisadeStoreObject.html">PalisadeStoreObject</a></li></ul><h2 id="interfaces" tabindex="-1">Interfaces <a class="header-anchor" href="#interfaces" aria-label="Permalink to &quot;Interfaces&quot;">​</a></h2><ul><li><a href="./interfaces/DurableObjectApiKeyStoreOptions.html">DurableObjectApiKeyStoreOptions</a></li><li><a href="./interfaces/DurableObjectConcurrencyStoreOptions.html">DurableObjectConcurrencyStoreOptions</a></li><li><a href="./interfaces/DurableObjectIdempotencyStoreOptions.html">DurableObjectIdempotencyStoreOptions</a></li><li><a href="./interfaces/DurableObjectNamespaceLike.html">DurableObjectNamespaceLike</a></li><li><a href="./interfaces/DurableObjectNonceStoreOptions.html">DurableObjectNonceStoreOptions</a></li><li><a href="./interfaces/DurableObjectRateLimitStoreOptions.html">DurableObjectRateLimitStoreOptions</a></li><li><a href="./interfaces/DurableObjectSessionStoreOptions.html">DurableObjectSessionStoreOptions</a></li><li><a href="./interfaces/DurableObjectStateLike.html">DurableObjectStateLike</a></li><li><a href="./interfaces/DurableObjectStorageLike.html">DurableObjectStorageLike</a></li><li><a href="./interfaces/DurableObjectStoreOptions.html">DurableObjectStoreOptions</a></li><li><a href="./interfaces/DurableObjectStubLike.html">DurableObjectStubLike</a></li></ul><h2 id="type-aliases" tabindex="-1">Type Aliases <a class="header-anchor" href="#type-aliases" aria-label="Permalink to &quot;Type Aliases&quot;">​</a></h2><ul><li><a href="./type-aliases/DurableObjectNamespaceResolver.html">DurableObjectNamespaceResolver</a></li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/cloudflare/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
