import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: UseRecord<Pt, C>","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/interfaces/UseRecord.md","filePath":"api/openapi/interfaces/UseRecord.md"}');
const _sfc_main = { name: "api/openapi/interfaces/UseRecord.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-userecord-pt-c" tabindex="-1">Interface: UseRecord&lt;Pt, C&gt; <a class="header-anchor" href="#interface-userecord-pt-c" aria-label="Permalink to &quot;Interface: UseRecord\\&lt;Pt, C\\&gt;&quot;">​</a></h1><p>Middleware added by <code>use()</code> at a path pattern, kept in the router&#39;s type when they reject.</p><h2 id="type-parameters" tabindex="-1">Type Parameters <a class="header-anchor" href="#type-parameters" aria-label="Permalink to &quot;Type Parameters&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Type Parameter</th><th>Default type</th></tr></thead><tbody><tr><td><a id="type-parameter-pt"></a> <code>Pt</code> <em>extends</em> <code>string</code></td><td><code>string</code></td></tr><tr><td><a id="type-parameter-c"></a> <code>C</code></td><td><a href="./../../middleware/type-aliases/RejectionCodes.html"><code>RejectionCodes</code></a></td></tr></tbody></table><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th></tr></thead><tbody><tr><td><a id="property-codes"></a> <code>codes</code></td><td><code>C</code></td></tr><tr><td><a id="property-pattern"></a> <code>pattern</code></td><td><code>Pt</code></td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/interfaces/UseRecord.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const UseRecord = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  UseRecord as default
};
