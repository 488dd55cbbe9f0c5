import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse(`{"title":"","description":"","frontmatter":{"layout":"home","hero":{"name":"Palisade","text":"Security middleware and OpenAPI for Hono","tagline":"Web-standard APIs only. Node, Bun, Deno and Cloudflare Workers.","actions":[{"theme":"brand","text":"Get started","link":"/guide/"},{"theme":"alt","text":"Middleware","link":"/middleware/"},{"theme":"alt","text":"API reference","link":"/api/"}]},"features":[{"title":"Sixteen middleware","details":"cors, securityHeaders, rateLimit, jwtAuth, csrf, sessions, apiKey, ipGuard, ssrfGuard and more. Options are checked when the factory is called; every rejection carries a stable code.","link":"/middleware/"},{"title":"Stores for every deployment","details":"Memory for one process, Redis, Redis Cluster or PostgreSQL for several, Durable Objects on Workers, Deno KV on Deno Deploy. One conformance suite runs against each real backend.","link":"/stores/"},{"title":"The document is the contract","details":"@palisade/openapi documents your routes as OpenAPI 3.1.0, validates requests against the same schemas and serves an offline explorer and reference page.","link":"/openapi/"},{"title":"Coming from Express or Hono's built-ins","details":"Name mappings for helmet, cors, express-rate-limit, express-session and csrf-csrf, and for Hono's own middleware.","link":"/migrate/express"}]},"headers":[],"relativePath":"index.md","filePath":"index.md"}`);
const _sfc_main = { name: "index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
