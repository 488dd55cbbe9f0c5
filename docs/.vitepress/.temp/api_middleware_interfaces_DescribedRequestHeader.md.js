import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: DescribedRequestHeader","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/DescribedRequestHeader.md","filePath":"api/middleware/interfaces/DescribedRequestHeader.md"}');
const _sfc_main = { name: "api/middleware/interfaces/DescribedRequestHeader.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-describedrequestheader" tabindex="-1">Interface: DescribedRequestHeader <a class="header-anchor" href="#interface-describedrequestheader" aria-label="Permalink to &quot;Interface: DescribedRequestHeader&quot;">​</a></h1><p>A request header a middleware reads, documented as a header parameter of the operation.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> key</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> DescribedRequestHeader</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> {</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  name: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;Idempotency-Key&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  description: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;A unique key per operation&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  required: </span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;">false</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">,</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">  schema: { type: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;string&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, maxLength: </span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;">257</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> },</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">}</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-description"></a> <code>description</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-name"></a> <code>name</code></td><td><code>string</code></td><td>-</td></tr><tr><td><a id="property-required"></a> <code>required?</code></td><td><code>boolean</code></td><td>Whether a request without it is refused. Default <code>false</code>.</td></tr><tr><td><a id="property-schema"></a> <code>schema?</code></td><td><code>object</code></td><td>JSON Schema of the value. Default <code>{ type: &#39;string&#39; }</code>.</td></tr><tr><td><code>schema.type</code></td><td><code>&quot;string&quot;</code> | <code>&quot;number&quot;</code> | <code>&quot;boolean&quot;</code> | <code>&quot;integer&quot;</code></td><td>-</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/DescribedRequestHeader.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const DescribedRequestHeader = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  DescribedRequestHeader as default
};
