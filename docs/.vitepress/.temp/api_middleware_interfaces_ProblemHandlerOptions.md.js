import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ProblemHandlerOptions","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/ProblemHandlerOptions.md","filePath":"api/middleware/interfaces/ProblemHandlerOptions.md"}');
const _sfc_main = { name: "api/middleware/interfaces/ProblemHandlerOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-problemhandleroptions" tabindex="-1">Interface: ProblemHandlerOptions <a class="header-anchor" href="#interface-problemhandleroptions" aria-label="Permalink to &quot;Interface: ProblemHandlerOptions&quot;">​</a></h1><p>Options of <a href="./../functions/problemHandler.html">problemHandler</a>.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> options</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ProblemHandlerOptions</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> { typeBase: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;https://errors.example.com/&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> }</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">app.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">onError</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">problemHandler</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(options))</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-onunexpected"></a> <code>onUnexpected?</code></td><td>(<code>err</code>, <code>c</code>) =&gt; <code>void</code></td><td>Called with every error that is not an <code>HTTPException</code> (answered 500 without its message). Default: <code>console.error</code> of the error&#39;s stack, then its own properties and causes with the values of secret headers redacted (an HTTP client&#39;s <code>err.config.headers.Authorization</code>, as axios attaches it, never reaches the log). Hono&#39;s default handler prints the error whole.</td></tr><tr><td><a id="property-typebase"></a> <code>typeBase?</code></td><td><code>string</code></td><td>When set, <code>type</code> is this prefix followed by the code (<code>https://errors.example.com/rate_limited</code>). Default: <code>about:blank</code> (RFC 9457 §4.2.1: the title is then the HTTP status phrase).</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/ProblemHandlerOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ProblemHandlerOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ProblemHandlerOptions as default
};
