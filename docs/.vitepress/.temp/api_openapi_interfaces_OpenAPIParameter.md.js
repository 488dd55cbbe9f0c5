import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: OpenAPIParameter","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/interfaces/OpenAPIParameter.md","filePath":"api/openapi/interfaces/OpenAPIParameter.md"}');
const _sfc_main = { name: "api/openapi/interfaces/OpenAPIParameter.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-openapiparameter" tabindex="-1">Interface: OpenAPIParameter <a class="header-anchor" href="#interface-openapiparameter" aria-label="Permalink to &quot;Interface: OpenAPIParameter&quot;">​</a></h1><p>A Parameter Object.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> params</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> OpenAPIParameter</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">[] </span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">=</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> api.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">spec</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">().paths[</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;/pets/{id}&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">]?.get?.parameters </span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">??</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> []</span></span>
<span class="line"><span style="--shiki-light:#6A737D;--shiki-dark:#6A737D;">// [{ name: &#39;id&#39;, in: &#39;path&#39;, required: true, schema: { type: &#39;string&#39; } }]</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-deprecated"></a> <code>deprecated?</code></td><td><code>boolean</code></td><td>-</td></tr><tr><td><a id="property-description"></a> <code>description?</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-in"></a> <code>in</code></td><td><code>&quot;header&quot;</code> | <code>&quot;query&quot;</code> | <code>&quot;path&quot;</code></td><td>-</td></tr><tr><td><a id="property-name"></a> <code>name</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-required"></a> <code>required</code></td><td><code>boolean</code></td><td>Always true for path parameters.</td></tr><tr><td><a id="property-schema"></a> <code>schema</code></td><td><a href="./OpenAPISchema.html"><code>OpenAPISchema</code></a></td><td>-</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/interfaces/OpenAPIParameter.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const OpenAPIParameter = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  OpenAPIParameter as default
};
