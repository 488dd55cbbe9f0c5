import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: HonoApp","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/interfaces/HonoApp.md","filePath":"api/openapi/interfaces/HonoApp.md"}');
const _sfc_main = { name: "api/openapi/interfaces/HonoApp.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-honoapp" tabindex="-1">Interface: HonoApp <a class="header-anchor" href="#interface-honoapp" aria-label="Permalink to &quot;Interface: HonoApp&quot;">​</a></h1><p>What <code>openapi()</code> accepts: a Hono app (checked at run time). Its <code>Env</code> and base path are read with <code>EnvOf</code> and <code>BasePathOf</code>; the routes already on it are not part of the wrapper&#39;s type.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th></tr></thead><tbody><tr><td><a id="property-fetch"></a> <code>fetch</code></td><td>(...<code>args</code>) =&gt; <code>unknown</code></td></tr><tr><td><a id="property-routes"></a> <code>routes</code></td><td><code>unknown</code>[]</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/interfaces/HonoApp.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const HonoApp = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  HonoApp as default
};
