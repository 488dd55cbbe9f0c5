import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: PeriodSpan","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/PeriodSpan.md","filePath":"api/middleware/interfaces/PeriodSpan.md"}');
const _sfc_main = { name: "api/middleware/interfaces/PeriodSpan.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-periodspan" tabindex="-1">Interface: PeriodSpan <a class="header-anchor" href="#interface-periodspan" aria-label="Permalink to &quot;Interface: PeriodSpan&quot;">​</a></h1><p>One period: its name in the key, and where it starts and ends (ms since the epoch).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-end"></a> <code>end</code></td><td><code>number</code></td><td>Exclusive: the next period&#39;s start.</td></tr><tr><td><a id="property-id"></a> <code>id</code></td><td><code>string</code></td><td><code>YYYY-MM-DD</code> for a day, <code>YYYY-MM</code> for a month, in the period&#39;s time zone.</td></tr><tr><td><a id="property-start"></a> <code>start</code></td><td><code>number</code></td><td>-</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/PeriodSpan.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const PeriodSpan = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  PeriodSpan as default
};
