import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Type Alias: ValidationCode","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/type-aliases/ValidationCode.md","filePath":"api/openapi/type-aliases/ValidationCode.md"}');
const _sfc_main = { name: "api/openapi/type-aliases/ValidationCode.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="type-alias-validationcode" tabindex="-1">Type Alias: ValidationCode <a class="header-anchor" href="#type-alias-validationcode" aria-label="Permalink to &quot;Type Alias: ValidationCode&quot;">​</a></h1><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">type</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ValidationCode</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> typeof</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> VALIDATION_CODES</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">[number];</span></span></code></pre></div><p>Why <code>openapi()</code> rejected a request before the handler ran. <code>malformed_body</code>: the body is not JSON / not a form; <code>validation_failed</code>: a schema rejected a part of the request (also an empty body where one is required); <code>unsupported_media_type</code>: the body is not in a media type the route accepts (status 415).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/type-aliases/ValidationCode.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ValidationCode = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ValidationCode as default
};
