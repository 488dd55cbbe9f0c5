import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: DescribedHeader","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/DescribedHeader.md","filePath":"api/middleware/interfaces/DescribedHeader.md"}');
const _sfc_main = { name: "api/middleware/interfaces/DescribedHeader.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-describedheader" tabindex="-1">Interface: DescribedHeader <a class="header-anchor" href="#interface-describedheader" aria-label="Permalink to &quot;Interface: DescribedHeader&quot;">​</a></h1><p>A response header, as the generator documents it.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> header</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> DescribedHeader</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> {</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  name: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;Retry-After&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  description: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;Seconds until a retry can succeed&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  schema: { type: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;integer&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> },</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">}</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-description"></a> <code>description</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-name"></a> <code>name</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-on"></a> <code>on?</code></td><td><code>&quot;success&quot;</code> | <code>&quot;passed&quot;</code> | <code>&quot;always&quot;</code></td><td><code>&#39;success&#39;</code> (default): on the responses the middleware lets through (2xx, 3xx); <code>&#39;passed&#39;</code>: those, and every answer of what runs after it (the handler&#39;s, the validation&#39;s, later middleware&#39;s rejections, the 500), because the header is set before the request goes on; <code>&#39;always&#39;</code>: on every response of the operation, rejections included.</td></tr><tr><td><a id="property-schema"></a> <code>schema?</code></td><td><code>object</code></td><td>JSON Schema of the value. Default <code>{ type: &#39;string&#39; }</code>.</td></tr><tr><td><code>schema.type</code></td><td><code>&quot;string&quot;</code> | <code>&quot;number&quot;</code> | <code>&quot;boolean&quot;</code> | <code>&quot;integer&quot;</code></td><td>-</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/DescribedHeader.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const DescribedHeader = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  DescribedHeader as default
};
