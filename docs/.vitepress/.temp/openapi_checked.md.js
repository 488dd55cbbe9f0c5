import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Checked by real tools","description":"","frontmatter":{},"headers":[],"relativePath":"openapi/checked.md","filePath":"openapi/checked.md"}');
const _sfc_main = { name: "openapi/checked.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="checked-by-real-tools" tabindex="-1">Checked by real tools <a class="header-anchor" href="#checked-by-real-tools" aria-label="Permalink to &quot;Checked by real tools&quot;">​</a></h1><ul><li><code>@seriousme/openapi-schema-validator</code> on every document the tests generate, plus: every <code>$ref</code> resolves and every schema compiles under a strict Ajv 2020-12 (which rejects unknown keywords). A self-test shows that check failing on broken documents.</li><li><code>@redocly/cli lint</code> with <code>recommended</code> rules on a realistic app (<a href="https://github.com/palisade-dev/palisade/blob/main/tests/openapi/bookstore.ts" target="_blank" rel="noreferrer"><code>tests/openapi/bookstore.ts</code></a>): zero errors, and on the example app, with <code>security-defined</code> and <code>operation-4xx-response</code> switched on as errors (<a href="https://github.com/palisade-dev/palisade/blob/main/tests/openapi/redocly.yaml" target="_blank" rel="noreferrer"><code>tests/openapi/redocly.yaml</code></a>): the middleware describe their schemes and rejections, so no route writes them by hand; warnings (tag descriptions, example.com servers) are allowed.</li><li><code>openapi-typescript</code> generates types from the same document and <code>tsc --strict</code> compiles a small typed client against them; clients with a wrong field type, an unknown enum value, a missing required field or a missing path parameter fail to compile.</li><li>The response check&#39;s stripping rule is tested with fast-check properties: a body built of plain objects, class instances, <code>toJSON()</code> documents, null-prototype objects and Dates, with undeclared keys anywhere, always strips to JSON that Ajv validates against the schema, that holds no undeclared key, and that equals what stripping its <code>JSON.stringify</code> form gives; a discriminated union never keeps a key of the variant its tag did not select.</li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("openapi/checked.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const checked = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  checked as default
};
