import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: MemoryConcurrencyStoreOptions","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/MemoryConcurrencyStoreOptions.md","filePath":"api/middleware/interfaces/MemoryConcurrencyStoreOptions.md"}');
const _sfc_main = { name: "api/middleware/interfaces/MemoryConcurrencyStoreOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-memoryconcurrencystoreoptions" tabindex="-1">Interface: MemoryConcurrencyStoreOptions <a class="header-anchor" href="#interface-memoryconcurrencystoreoptions" aria-label="Permalink to &quot;Interface: MemoryConcurrencyStoreOptions&quot;">​</a></h1><p>Options of <a href="./../classes/MemoryConcurrencyStore.html">MemoryConcurrencyStore</a>.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">let</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> now </span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">=</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> 0</span></span>
<span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> store</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> new</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> MemoryConcurrencyStore</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">({ </span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;">now</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">: () </span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">=&gt;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> now }) </span><span style="--shiki-light:#6A737D;--shiki-dark:#6A737D;">// a test clock: advance by hand</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-now"></a> <code>now?</code></td><td>() =&gt; <code>number</code></td><td>Clock in milliseconds, for tests. Default <code>Date.now</code>.</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/MemoryConcurrencyStoreOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const MemoryConcurrencyStoreOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  MemoryConcurrencyStoreOptions as default
};
