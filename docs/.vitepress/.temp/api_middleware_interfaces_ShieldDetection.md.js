import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ShieldDetection","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/ShieldDetection.md","filePath":"api/middleware/interfaces/ShieldDetection.md"}');
const _sfc_main = { name: "api/middleware/interfaces/ShieldDetection.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-shielddetection" tabindex="-1">Interface: ShieldDetection <a class="header-anchor" href="#interface-shielddetection" aria-label="Permalink to &quot;Interface: ShieldDetection&quot;">​</a></h1><p>What <a href="./ShieldOptions.html#property-ondetect">ShieldOptions.onDetect</a> receives: what was found and where, never the value.</p><h2 id="example" tabindex="-1">Example <a class="header-anchor" href="#example" aria-label="Permalink to &quot;Example&quot;">​</a></h2><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">const</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;"> detection</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">:</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ShieldDetection</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> { category: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;sqli&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, location: </span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;">&#39;body:/comment&#39;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">, dryRun: </span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF;">false</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;"> }</span></span></code></pre></div><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-category"></a> <code>category</code></td><td><a href="./../type-aliases/AttackCategory.html"><code>AttackCategory</code></a></td><td>The attack category that fired.</td></tr><tr><td><a id="property-dryrun"></a> <code>dryRun</code></td><td><code>boolean</code></td><td><code>true</code> when shield runs in dry run and lets the request through.</td></tr><tr><td><a id="property-location"></a> <code>location</code></td><td><code>string</code></td><td>Where: <code>path</code>, <code>query:q</code>, <code>query</code> (a parameter name), <code>header:referer</code>, <code>cookie:sid</code>, <code>body:/comment</code>, <code>body</code>.</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/ShieldDetection.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ShieldDetection = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ShieldDetection as default
};
