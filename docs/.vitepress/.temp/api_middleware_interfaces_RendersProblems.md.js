import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RendersProblems","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/RendersProblems.md","filePath":"api/middleware/interfaces/RendersProblems.md"}');
const _sfc_main = { name: "api/middleware/interfaces/RendersProblems.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-rendersproblems" tabindex="-1">Interface: RendersProblems <a class="header-anchor" href="#interface-rendersproblems" aria-label="Permalink to &quot;Interface: RendersProblems&quot;">​</a></h1><p>The type-level mark of an error handler that renders every rejection as problem details (<code>problemHandler()</code>): a phantom, like <a href="./Rejects.html">Rejects</a>.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> handler</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> RendersProblems</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> problemHandler</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">()</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Modifier</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-rejectionbody"></a> <code>~rejectionBody?</code></td><td><code>readonly</code></td><td><code>&quot;problem&quot;</code></td><td>Phantom, for the type checker only; never present at run time.</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/RendersProblems.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RendersProblems = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RendersProblems as default
};
