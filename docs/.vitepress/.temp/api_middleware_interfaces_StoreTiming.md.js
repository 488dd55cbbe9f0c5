import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: StoreTiming","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/StoreTiming.md","filePath":"api/middleware/interfaces/StoreTiming.md"}');
const _sfc_main = { name: "api/middleware/interfaces/StoreTiming.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-storetiming" tabindex="-1">Interface: StoreTiming <a class="header-anchor" href="#interface-storetiming" aria-label="Permalink to &quot;Interface: StoreTiming&quot;">​</a></h1><p>Time spent in a store call: <code>op</code> is the store method (<code>increment</code>, <code>get</code>, <code>validate</code>, …).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th></tr></thead><tbody><tr><td><a id="property-ms"></a> <code>ms</code></td><td><code>number</code></td></tr><tr><td><a id="property-op"></a> <code>op</code></td><td><code>string</code></td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/StoreTiming.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const StoreTiming = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  StoreTiming as default
};
