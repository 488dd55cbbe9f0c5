import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RequestIdOptions","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/RequestIdOptions.md","filePath":"api/middleware/interfaces/RequestIdOptions.md"}');
const _sfc_main = { name: "api/middleware/interfaces/RequestIdOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-requestidoptions" tabindex="-1">Interface: RequestIdOptions <a class="header-anchor" href="#interface-requestidoptions" aria-label="Permalink to &quot;Interface: RequestIdOptions&quot;">​</a></h1><p>Options of <a href="./../functions/requestId.html">requestId</a>.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> options</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> RequestIdOptions</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> { headerName: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;X-Correlation-ID&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, trustUpstream: </span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;">false</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> }</span></span>
<span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">app.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">use</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">requestId</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(options))</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-contextkey"></a> <code>contextKey?</code></td><td><code>string</code></td><td>Context key the ID is stored under. Default <code>requestId</code>.</td></tr><tr><td><a id="property-generate"></a> <code>generate?</code></td><td>() =&gt; <code>string</code></td><td>Produces a new ID; must return 1–255 characters of <code>[A-Za-z0-9._:=+/-]</code>. Default <code>crypto.randomUUID()</code>.</td></tr><tr><td><a id="property-headername"></a> <code>headerName?</code></td><td><code>string</code></td><td>Header read from the request and written to the response. Default <code>X-Request-ID</code>.</td></tr><tr><td><a id="property-trustupstream"></a> <code>trustUpstream?</code></td><td><code>boolean</code></td><td>Reuse a well-formed ID sent by the client. Default <code>true</code>.</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/RequestIdOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RequestIdOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RequestIdOptions as default
};
