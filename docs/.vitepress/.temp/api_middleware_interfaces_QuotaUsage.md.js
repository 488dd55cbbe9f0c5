import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: QuotaUsage","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/QuotaUsage.md","filePath":"api/middleware/interfaces/QuotaUsage.md"}');
const _sfc_main = { name: "api/middleware/interfaces/QuotaUsage.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-quotausage" tabindex="-1">Interface: QuotaUsage <a class="header-anchor" href="#interface-quotausage" aria-label="Permalink to &quot;Interface: QuotaUsage&quot;">​</a></h1><p>What <code>usage()</code> reads: the calls counted for a key in one period.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th></tr></thead><tbody><tr><td><a id="property-key"></a> <code>key</code></td><td><code>string</code></td></tr><tr><td><a id="property-period"></a> <code>period</code></td><td><a href="./PeriodSpan.html"><code>PeriodSpan</code></a></td></tr><tr><td><a id="property-used"></a> <code>used</code></td><td><code>number</code></td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/QuotaUsage.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const QuotaUsage = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  QuotaUsage as default
};
