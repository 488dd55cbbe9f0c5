import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ProblemBody","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/ProblemBody.md","filePath":"api/middleware/interfaces/ProblemBody.md"}');
const _sfc_main = { name: "api/middleware/interfaces/ProblemBody.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-problembody" tabindex="-1">Interface: ProblemBody <a class="header-anchor" href="#interface-problembody" aria-label="Permalink to &quot;Interface: ProblemBody&quot;">​</a></h1><p>The body <code>problemHandler()</code> renders (RFC 9457, with the <code>code</code> extension member).</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> body</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ProblemBody</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> {</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  type: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;about:blank&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  title: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;Too Many Requests&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  status: </span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;">429</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  detail: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;Too many requests&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  code: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;rate_limited&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">}</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-code"></a> <code>code</code></td><td><code>string</code></td><td>Stable snake_case machine code.</td></tr><tr><td><a id="property-detail"></a> <code>detail?</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-errors"></a> <code>errors?</code></td><td><a href="./ProblemFieldError.html"><code>ProblemFieldError</code></a>[]</td><td>Field errors, on validation failures.</td></tr><tr><td><a id="property-status"></a> <code>status</code></td><td><code>number</code></td><td>-</td></tr><tr><td><a id="property-title"></a> <code>title</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-type"></a> <code>type</code></td><td><code>string</code></td><td>-</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/ProblemBody.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ProblemBody = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ProblemBody as default
};
