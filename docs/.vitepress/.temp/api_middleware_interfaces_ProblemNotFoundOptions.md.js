import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ProblemNotFoundOptions","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/ProblemNotFoundOptions.md","filePath":"api/middleware/interfaces/ProblemNotFoundOptions.md"}');
const _sfc_main = { name: "api/middleware/interfaces/ProblemNotFoundOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-problemnotfoundoptions" tabindex="-1">Interface: ProblemNotFoundOptions <a class="header-anchor" href="#interface-problemnotfoundoptions" aria-label="Permalink to &quot;Interface: ProblemNotFoundOptions&quot;">​</a></h1><p>Options of <a href="./../functions/problemNotFound.html">problemNotFound</a>.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> options</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ProblemNotFoundOptions</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> { typeBase: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;https://errors.example.com/&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> }</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">app.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">notFound</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">problemNotFound</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(options))</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-typebase"></a> <code>typeBase?</code></td><td><code>string</code></td><td>When set, <code>type</code> is this prefix followed by <code>not_found</code>, as in <code>problemHandler({ typeBase })</code>. Default: <code>about:blank</code>.</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/ProblemNotFoundOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ProblemNotFoundOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ProblemNotFoundOptions as default
};
