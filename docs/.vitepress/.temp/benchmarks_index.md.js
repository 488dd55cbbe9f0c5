import { ssrRenderAttrs, ssrRenderAttr } from "vue/server-renderer";
import { _ as _imports_0 } from "./http-chart.zGpXTkKu.js";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Benchmarks","description":"","frontmatter":{},"headers":[],"relativePath":"benchmarks/index.md","filePath":"benchmarks/index.md"}');
const _sfc_main = { name: "benchmarks/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="benchmarks" tabindex="-1">Benchmarks <a class="header-anchor" href="#benchmarks" aria-label="Permalink to &quot;Benchmarks&quot;">​</a></h1><p><code>pnpm bench</code> (a build, then about 7.5 minutes; <code>--quick</code> about 1.5) measures the built packages, as an app installs them. It compares every middleware with Hono&#39;s built-in equivalent and a bare route in one process, and the example app&#39;s stack over HTTP with bare Hono, Express and Fastify stacks. Absolute times depend on the machine; the ratios are what the targets are about.</p><p><img${ssrRenderAttr("src", _imports_0)} alt="HTTP comparison: requests per second and server CPU per request"></p><ul><li><a href="./results.html">Latest results</a>: the machine, the versions, every target and whether it is met, per-middleware timings, the stores side by side, and what profiling found.</li><li><a href="./findings.html">Findings</a>: what costs what and why, by topic.</li><li><a href="./ablation.html">Ablation</a>: what each optimisation is worth on its own.</li></ul><p>The pages are copied from <a href="/benchmarks/results.html"><code>bench/RESULTS.md</code></a>, <a href="/benchmarks/findings.html"><code>bench/FINDINGS.md</code></a> and <a href="/benchmarks/ablation.html"><code>bench/ABLATION.md</code></a> when the site is built, so they always show the last recorded run.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("benchmarks/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
