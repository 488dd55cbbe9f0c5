import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Type Alias: ResponseValidationMode","description":"","frontmatter":{},"headers":[],"relativePath":"api/openapi/type-aliases/ResponseValidationMode.md","filePath":"api/openapi/type-aliases/ResponseValidationMode.md"}');
const _sfc_main = { name: "api/openapi/type-aliases/ResponseValidationMode.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="type-alias-responsevalidationmode" tabindex="-1">Type Alias: ResponseValidationMode <a class="header-anchor" href="#type-alias-responsevalidationmode" aria-label="Permalink to &quot;Type Alias: ResponseValidationMode&quot;">​</a></h1><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">type</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ResponseValidationMode</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;strip&quot;</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> |</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;strict&quot;</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> |</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;report&quot;</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> |</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;off&quot;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">;</span></span></code></pre></div><p>What happens to a JSON body whose status has a declared schema:</p><ul><li><code>&#39;strip&#39;</code> (default): properties the schema does not declare are removed, then the body is validated; a body that still fails is answered 500 <code>response_invalid</code>;</li><li><code>&#39;strict&#39;</code>: an undeclared property is itself a failure (500);</li><li><code>&#39;report&#39;</code>: the body is sent as built; failures and undeclared properties go to the hook;</li><li><code>&#39;off&#39;</code>: nothing is checked, not even the status.</li></ul><p>The body checked is what <code>JSON.stringify</code> would send (<code>toJSON</code> applied, class instances read by their own enumerable properties). In <code>&#39;strip&#39;</code> and <code>&#39;strict&#39;</code> a JSON body under a status the route does not declare is answered 500 <code>response_invalid</code> too.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/openapi/type-aliases/ResponseValidationMode.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ResponseValidationMode = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ResponseValidationMode as default
};
