import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: SignedWebhook","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/SignedWebhook.md","filePath":"api/middleware/interfaces/SignedWebhook.md"}');
const _sfc_main = { name: "api/middleware/interfaces/SignedWebhook.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-signedwebhook" tabindex="-1">Interface: SignedWebhook <a class="header-anchor" href="#interface-signedwebhook" aria-label="Permalink to &quot;Interface: SignedWebhook&quot;">​</a></h1><p>What <a href="./../functions/signWebhook.html">signWebhook</a> gives: the headers to send and the exact body they sign.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-body"></a> <code>body</code></td><td><code>string</code> | <code>Uint8Array</code>&lt;<code>ArrayBuffer</code>&gt;</td><td>The body to send, byte for byte (a payload object is serialised once, here).</td></tr><tr><td><a id="property-headers"></a> <code>headers</code></td><td><code>Record</code>&lt;<code>string</code>, <code>string</code>&gt;</td><td>-</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/SignedWebhook.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const SignedWebhook = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  SignedWebhook as default
};
