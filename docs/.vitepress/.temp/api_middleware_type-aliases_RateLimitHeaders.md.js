import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Type Alias: RateLimitHeaders","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/type-aliases/RateLimitHeaders.md","filePath":"api/middleware/type-aliases/RateLimitHeaders.md"}');
const _sfc_main = { name: "api/middleware/type-aliases/RateLimitHeaders.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="type-alias-ratelimitheaders" tabindex="-1">Type Alias: RateLimitHeaders <a class="header-anchor" href="#type-alias-ratelimitheaders" aria-label="Permalink to &quot;Type Alias: RateLimitHeaders&quot;">​</a></h1><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">type</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> RateLimitHeaders</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;draft-6&quot;</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> |</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;draft-8&quot;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">;</span></span></code></pre></div><p>Which IETF RateLimit header draft <code>rateLimit</code> speaks: <code>&#39;draft-6&#39;</code> sends <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code>, <code>RateLimit-Reset</code> and <code>RateLimit-Policy: &lt;max&gt;;w=&lt;s&gt;</code>; <code>&#39;draft-8&#39;</code> sends the structured fields <code>RateLimit-Policy: &quot;&lt;name&gt;&quot;; q=&lt;max&gt;; w=&lt;s&gt;; pk=:&lt;key hash&gt;:</code> and <code>RateLimit: &quot;&lt;name&gt;&quot;; r=&lt;remaining&gt;; t=&lt;reset&gt;</code> (as express-rate-limit does, except that the key hash is salted per limiter).</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> standardHeaders</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> RateLimitHeaders</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &#39;draft-8&#39;</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">app.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">use</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">rateLimit</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">({ standardHeaders }))</span></span></code></pre></div></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/type-aliases/RateLimitHeaders.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RateLimitHeaders = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RateLimitHeaders as default
};
