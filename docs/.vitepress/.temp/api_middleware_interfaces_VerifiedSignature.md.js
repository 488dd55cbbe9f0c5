import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: VerifiedSignature","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/VerifiedSignature.md","filePath":"api/middleware/interfaces/VerifiedSignature.md"}');
const _sfc_main = { name: "api/middleware/interfaces/VerifiedSignature.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-verifiedsignature" tabindex="-1">Interface: VerifiedSignature <a class="header-anchor" href="#interface-verifiedsignature" aria-label="Permalink to &quot;Interface: VerifiedSignature&quot;">​</a></h1><p>What <code>c.get(&#39;signature&#39;)</code> holds after <code>httpSignature</code> accepted a request: the verified signature&#39;s key id, algorithm (the key&#39;s), <code>created</code> (seconds), label and tag.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">app.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">get</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;/orders&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, (</span><span style="--shiki-light:#E36209;--shiki-dark:#FFAB70;">c</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">) </span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">=&gt;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> c.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">json</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">({ partner: c.</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">get</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">(</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;signature&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">).keyid }))</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th></tr></thead><tbody><tr><td><a id="property-alg"></a> <code>alg</code></td><td><code>string</code></td></tr><tr><td><a id="property-created"></a> <code>created</code></td><td><code>number</code></td></tr><tr><td><a id="property-keyid"></a> <code>keyid</code></td><td><code>string</code></td></tr><tr><td><a id="property-label"></a> <code>label</code></td><td><code>string</code></td></tr><tr><td><a id="property-tag"></a> <code>tag</code></td><td><code>string</code> | <code>undefined</code></td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/VerifiedSignature.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const VerifiedSignature = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  VerifiedSignature as default
};
