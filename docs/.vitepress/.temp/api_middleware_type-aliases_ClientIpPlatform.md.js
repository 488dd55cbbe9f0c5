import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Type Alias: ClientIpPlatform","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/type-aliases/ClientIpPlatform.md","filePath":"api/middleware/type-aliases/ClientIpPlatform.md"}');
const _sfc_main = { name: "api/middleware/type-aliases/ClientIpPlatform.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="type-alias-clientipplatform" tabindex="-1">Type Alias: ClientIpPlatform <a class="header-anchor" href="#type-alias-clientipplatform" aria-label="Permalink to &quot;Type Alias: ClientIpPlatform&quot;">​</a></h1><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;">type</span><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0;"> ClientIpPlatform</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> =</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;vercel&quot;</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> |</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;aws-lambda&quot;</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> |</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;netlify&quot;</span><span style="--shiki-light:#D73A49;--shiki-dark:#F97583;"> |</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF;"> &quot;cloudflare&quot;</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8;">;</span></span></code></pre></div><p>Platforms whose documented client-address source can be declared with the public <code>clientIp()</code> middleware. Each has one source, set by the platform and not by the client:</p><ul><li><code>vercel</code>: the <code>x-real-ip</code> header, which Vercel&#39;s edge overwrites;</li><li><code>aws-lambda</code>: <code>requestContext.identity.sourceIp</code> (API Gateway REST) or <code>requestContext.http.sourceIp</code> (HTTP API, Function URLs); behind an ALB, the right-most <code>X-Forwarded-For</code> entry (the one the ALB appended);</li><li><code>netlify</code>: <code>context.ip</code> from the Netlify handler (<code>hono/netlify</code>), else the <code>x-nf-client-connection-ip</code> header Netlify&#39;s edge sets;</li><li><code>cloudflare</code>: <code>cf-connecting-ip</code>, and only on a request that carries Cloudflare&#39;s <code>cf</code> object.</li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/type-aliases/ClientIpPlatform.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ClientIpPlatform = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ClientIpPlatform as default
};
