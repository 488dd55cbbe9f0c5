import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ConvertOptions","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/interfaces/ConvertOptions.md","filePath":"api/openapi/interfaces/ConvertOptions.md"}');
const _sfc_main = { name: "api/openapi/interfaces/ConvertOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-convertoptions" tabindex="-1">Interface: ConvertOptions <a class="header-anchor" href="#interface-convertoptions" aria-label="Permalink to &quot;Interface: ConvertOptions&quot;">​</a></h1><p>Options of <code>toOpenAPISchema</code>.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-components"></a> <code>components?</code></td><td><a href="./ComponentSink.html"><code>ComponentSink</code></a></td><td>Used by the document builder; standalone conversions put shared schemas in <code>$defs</code>.</td></tr><tr><td><a id="property-converters"></a> <code>converters?</code></td><td><code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <a href="./../type-aliases/SchemaConverter.html"><code>SchemaConverter</code></a>&gt;&gt;</td><td>By <code>~standard.vendor</code>: <code>{ valibot: toJsonSchema }</code>.</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/interfaces/ConvertOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ConvertOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ConvertOptions as default
};
