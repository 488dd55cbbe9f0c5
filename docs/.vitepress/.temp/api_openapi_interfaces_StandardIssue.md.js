import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: StandardIssue","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/interfaces/StandardIssue.md","filePath":"api/openapi/interfaces/StandardIssue.md"}');
const _sfc_main = { name: "api/openapi/interfaces/StandardIssue.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-standardissue" tabindex="-1">Interface: StandardIssue <a class="header-anchor" href="#interface-standardissue" aria-label="Permalink to &quot;Interface: StandardIssue&quot;">​</a></h1><p>One Standard Schema issue: a message and where in the value it applies.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Modifier</th><th>Type</th></tr></thead><tbody><tr><td><a id="property-message"></a> <code>message</code></td><td><code>readonly</code></td><td><code>string</code></td></tr><tr><td><a id="property-path"></a> <code>path?</code></td><td><code>readonly</code></td><td>readonly ( | <code>PropertyKey</code> | { <code>key</code>: <code>PropertyKey</code>; })[]</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/interfaces/StandardIssue.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const StandardIssue = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  StandardIssue as default
};
