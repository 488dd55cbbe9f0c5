import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Variable: MAX_NONCE_LENGTH","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/variables/MAX_NONCE_LENGTH.md","filePath":"api/middleware/variables/MAX_NONCE_LENGTH.md"}');
const _sfc_main = { name: "api/middleware/variables/MAX_NONCE_LENGTH.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="variable-max-nonce-length" tabindex="-1">Variable: MAX_NONCE_LENGTH <a class="header-anchor" href="#variable-max-nonce-length" aria-label="Permalink to &quot;Variable: MAX\\_NONCE\\_LENGTH&quot;">​</a></h1><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> MAX_NONCE_LENGTH</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> 512</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> 512</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">;</span></span></code></pre></div><p>The longest nonce a store accepts (callers hash longer ones).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/variables/MAX_NONCE_LENGTH.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const MAX_NONCE_LENGTH = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  MAX_NONCE_LENGTH as default
};
