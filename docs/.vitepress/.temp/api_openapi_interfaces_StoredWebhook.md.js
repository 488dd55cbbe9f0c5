import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: StoredWebhook","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/interfaces/StoredWebhook.md","filePath":"api/openapi/interfaces/StoredWebhook.md"}');
const _sfc_main = { name: "api/openapi/interfaces/StoredWebhook.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-storedwebhook" tabindex="-1">Interface: StoredWebhook <a class="header-anchor" href="#interface-storedwebhook" aria-label="Permalink to &quot;Interface: StoredWebhook&quot;">​</a></h1><p>A webhook as the wrapper records it: what <code>generateSpec</code> reads.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> webhooks</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> StoredWebhook</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">[] </span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">=</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> [{ name: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;invoice.paid&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, meta: { payload: { type: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;object&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> } } }]</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-meta"></a> <code>meta</code></td><td><a href="./WebhookMeta.html"><code>WebhookMeta</code></a></td><td>-</td></tr><tr><td><a id="property-name"></a> <code>name</code></td><td><code>string</code></td><td>The key under <code>webhooks</code> (the event&#39;s name).</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/interfaces/StoredWebhook.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const StoredWebhook = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  StoredWebhook as default
};
