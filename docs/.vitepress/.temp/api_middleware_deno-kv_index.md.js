import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"@palisade/middleware/deno-kv","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/deno-kv/index.md","filePath":"api/middleware/deno-kv/index.md"}');
const _sfc_main = { name: "api/middleware/deno-kv/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="palisade-middleware-deno-kv" tabindex="-1">@palisade/middleware/deno-kv <a class="header-anchor" href="#palisade-middleware-deno-kv" aria-label="Permalink to &quot;@palisade/middleware/deno-kv&quot;">​</a></h1><p>Deno KV stores.</p><h2 id="classes" tabindex="-1">Classes <a class="header-anchor" href="#classes" aria-label="Permalink to &quot;Classes&quot;">​</a></h2><ul><li><a href="./classes/DenoKvApiKeyStore.html">DenoKvApiKeyStore</a></li><li><a href="./classes/DenoKvConcurrencyStore.html">DenoKvConcurrencyStore</a></li><li><a href="./classes/DenoKvIdempotencyStore.html">DenoKvIdempotencyStore</a></li><li><a href="./classes/DenoKvNonceStore.html">DenoKvNonceStore</a></li><li><a href="./classes/DenoKvRateLimitStore.html">DenoKvRateLimitStore</a></li><li><a href="./classes/DenoKvSessionStore.html">DenoKvSessionStore</a></li></ul><h2 id="interfaces" tabindex="-1">Interfaces <a class="header-anchor" href="#interfaces" aria-label="Permalink to &quot;Interfaces&quot;">​</a></h2><ul><li><a href="./interfaces/DenoKvApiKeyStoreOptions.html">DenoKvApiKeyStoreOptions</a></li><li><a href="./interfaces/DenoKvAtomicLike.html">DenoKvAtomicLike</a></li><li><a href="./interfaces/DenoKvConcurrencyStoreOptions.html">DenoKvConcurrencyStoreOptions</a></li><li><a href="./interfaces/DenoKvEntryLike.html">DenoKvEntryLike</a></li><li><a href="./interfaces/DenoKvIdempotencyStoreOptions.html">DenoKvIdempotencyStoreOptions</a></li><li><a href="./interfaces/DenoKvLike.html">DenoKvLike</a></li><li><a href="./interfaces/DenoKvListLike.html">DenoKvListLike</a></li><li><a href="./interfaces/DenoKvNonceStoreOptions.html">DenoKvNonceStoreOptions</a></li><li><a href="./interfaces/DenoKvRateLimitStoreOptions.html">DenoKvRateLimitStoreOptions</a></li><li><a href="./interfaces/DenoKvSessionStoreOptions.html">DenoKvSessionStoreOptions</a></li><li><a href="./interfaces/DenoKvStoreOptions.html">DenoKvStoreOptions</a></li></ul><h2 id="type-aliases" tabindex="-1">Type Aliases <a class="header-anchor" href="#type-aliases" aria-label="Permalink to &quot;Type Aliases&quot;">​</a></h2><ul><li><a href="./type-aliases/DenoKvKey.html">DenoKvKey</a></li><li><a href="./type-aliases/DenoKvResolver.html">DenoKvResolver</a></li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/deno-kv/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
