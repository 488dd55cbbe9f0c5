import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: BotInfo","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/BotInfo.md","filePath":"api/middleware/interfaces/BotInfo.md"}');
const _sfc_main = { name: "api/middleware/interfaces/BotInfo.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-botinfo" tabindex="-1">Interface: BotInfo <a class="header-anchor" href="#interface-botinfo" aria-label="Permalink to &quot;Interface: BotInfo&quot;">​</a></h1><p>What the handler reads from <code>c.get(&#39;bot&#39;)</code>.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Modifier</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-category"></a> <code>category</code></td><td><code>readonly</code></td><td><a href="./../type-aliases/BotCategory.html"><code>BotCategory</code></a></td><td>What botGuard made of the request: see the categories on the docs page.</td></tr><tr><td><a id="property-name"></a> <code>name?</code></td><td><code>readonly</code></td><td><code>string</code></td><td>The bot&#39;s name from botGuard&#39;s lists (<code>&#39;Googlebot&#39;</code>, <code>&#39;curl&#39;</code>); never text the client chose.</td></tr><tr><td><a id="property-verified"></a> <code>verified</code></td><td><code>readonly</code></td><td><code>boolean</code></td><td><code>true</code> only for a crawler&#39;s claim confirmed by its address (DNS or the ranges you passed).</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/BotInfo.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const BotInfo = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  BotInfo as default
};
