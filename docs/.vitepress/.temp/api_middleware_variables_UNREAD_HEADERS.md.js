import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Variable: UNREAD_HEADERS","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/variables/UNREAD_HEADERS.md","filePath":"api/middleware/variables/UNREAD_HEADERS.md"}');
const _sfc_main = { name: "api/middleware/variables/UNREAD_HEADERS.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="variable-unread-headers" tabindex="-1">Variable: UNREAD_HEADERS <a class="header-anchor" href="#variable-unread-headers" aria-label="Permalink to &quot;Variable: UNREAD\\_HEADERS&quot;">​</a></h1><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> UNREAD_HEADERS</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ReadonlySet</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">&lt;</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;">string</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">&gt;;</span></span></code></pre></div><p>Request headers shield does not read: they carry credentials or signatures (random by design, and never worth copying into a log&#39;s location), or are read elsewhere (<code>Cookie</code>, parsed as cookies; <code>Content-Length</code>, a number the runtime checks). Lower case.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/variables/UNREAD_HEADERS.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const UNREAD_HEADERS = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  UNREAD_HEADERS as default
};
