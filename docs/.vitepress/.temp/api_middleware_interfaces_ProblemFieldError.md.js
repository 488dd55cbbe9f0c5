import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ProblemFieldError","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/ProblemFieldError.md","filePath":"api/middleware/interfaces/ProblemFieldError.md"}');
const _sfc_main = { name: "api/middleware/interfaces/ProblemFieldError.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-problemfielderror" tabindex="-1">Interface: ProblemFieldError <a class="header-anchor" href="#interface-problemfielderror" aria-label="Permalink to &quot;Interface: ProblemFieldError&quot;">​</a></h1><p>One field-level failure of request validation (the openapi package&#39;s validation failures).</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> e</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ProblemFieldError</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> { in: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;body&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, path: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;/email&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, message: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;Invalid email&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> }</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-in"></a> <code>in</code></td><td><code>&quot;body&quot;</code> | <code>&quot;header&quot;</code> | <code>&quot;query&quot;</code> | <code>&quot;path&quot;</code></td><td>-</td></tr><tr><td><a id="property-message"></a> <code>message</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-path"></a> <code>path</code></td><td><code>string</code></td><td>RFC 6901 JSON pointer into that part (<code>/items/0/name</code>); <code>&#39;&#39;</code> for the part as a whole.</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/ProblemFieldError.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ProblemFieldError = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ProblemFieldError as default
};
