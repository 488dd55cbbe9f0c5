import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: OpenAPIHeader","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/interfaces/OpenAPIHeader.md","filePath":"api/openapi/interfaces/OpenAPIHeader.md"}');
const _sfc_main = { name: "api/openapi/interfaces/OpenAPIHeader.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-openapiheader" tabindex="-1">Interface: OpenAPIHeader <a class="header-anchor" href="#interface-openapiheader" aria-label="Permalink to &quot;Interface: OpenAPIHeader&quot;">​</a></h1><p>A Header Object of a response.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> retry</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> OpenAPIHeader</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> |</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> undefined</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  api.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">spec</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">().paths[</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;/api/ping&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">]?.get?.responses[</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;429&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">]?.headers?.[</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;Retry-After&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">]</span></span>
<span class="line"><span style="--shiki-light:#6A737D;--shiki-dark:#6A737D;">// { description: &#39;Seconds until a retry can succeed&#39;, schema: { type: &#39;integer&#39;, minimum: 1 } }</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th></tr></thead><tbody><tr><td><a id="property-description"></a> <code>description?</code></td><td><code>string</code></td></tr><tr><td><a id="property-schema"></a> <code>schema</code></td><td><a href="./OpenAPISchema.html"><code>OpenAPISchema</code></a></td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/interfaces/OpenAPIHeader.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const OpenAPIHeader = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  OpenAPIHeader as default
};
