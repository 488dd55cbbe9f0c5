import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Type Alias: QuotaMiddleware","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/type-aliases/QuotaMiddleware.md","filePath":"api/middleware/type-aliases/QuotaMiddleware.md"}');
const _sfc_main = { name: "api/middleware/type-aliases/QuotaMiddleware.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="type-alias-quotamiddleware" tabindex="-1">Type Alias: QuotaMiddleware <a class="header-anchor" href="#type-alias-quotamiddleware" aria-label="Permalink to &quot;Type Alias: QuotaMiddleware&quot;">​</a></h1><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">type</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> QuotaMiddleware</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> MiddlewareHandler</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> &amp;</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> QuotaRejects</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> &amp;</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> object</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">;</span></span></code></pre></div><p><code>quota()</code>&#39;s middleware, with a read of the counts for billing.</p><h2 id="type-declaration" tabindex="-1">Type Declaration <a class="header-anchor" href="#type-declaration" aria-label="Permalink to &quot;Type Declaration&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><code>usage()</code></td><td>( <code>key</code>, <code>at?</code>, <code>c?</code> ) =&gt; <code>Promise</code>&lt;<a href="./../interfaces/QuotaUsage.html"><code>QuotaUsage</code></a>&gt;</td><td>The calls counted for <code>key</code> (as the <code>key</code> option returns it) in the period holding <code>at</code> (default now); nothing is counted. <code>c</code> is needed only for a store bound per request (Durable Objects through <code>forContext</code>).</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/type-aliases/QuotaMiddleware.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const QuotaMiddleware = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  QuotaMiddleware as default
};
