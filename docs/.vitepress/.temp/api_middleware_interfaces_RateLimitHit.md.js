import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RateLimitHit","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/RateLimitHit.md","filePath":"api/middleware/interfaces/RateLimitHit.md"}');
const _sfc_main = { name: "api/middleware/interfaces/RateLimitHit.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-ratelimithit" tabindex="-1">Interface: RateLimitHit <a class="header-anchor" href="#interface-ratelimithit" aria-label="Permalink to &quot;Interface: RateLimitHit&quot;">​</a></h1><p>What a refund must undo: the algorithm, window and limit the request was counted with.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> hit</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> RateLimitHit</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> { algorithm: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;token-bucket&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, windowMs: </span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;">60_000</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, max: </span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;">10</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> }</span></span>
<span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">await</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> store.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">decrement</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">?.(</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;203.0.113.7&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, hit)</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th></tr></thead><tbody><tr><td><a id="property-algorithm"></a> <code>algorithm</code></td><td><a href="./../type-aliases/RateLimitAlgorithm.html"><code>RateLimitAlgorithm</code></a></td></tr><tr><td><a id="property-max"></a> <code>max</code></td><td><code>number</code></td></tr><tr><td><a id="property-windowms"></a> <code>windowMs</code></td><td><code>number</code></td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/RateLimitHit.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RateLimitHit = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RateLimitHit as default
};
