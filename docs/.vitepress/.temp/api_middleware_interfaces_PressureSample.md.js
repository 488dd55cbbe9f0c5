import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: PressureSample","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/PressureSample.md","filePath":"api/middleware/interfaces/PressureSample.md"}');
const _sfc_main = { name: "api/middleware/interfaces/PressureSample.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-pressuresample" tabindex="-1">Interface: PressureSample <a class="header-anchor" href="#interface-pressuresample" aria-label="Permalink to &quot;Interface: PressureSample&quot;">​</a></h1><p>One reading of the process&#39;s load, taken every <code>sampleIntervalMs</code>.</p><h2 id="extended-by" tabindex="-1">Extended by <a class="header-anchor" href="#extended-by" aria-label="Permalink to &quot;Extended by&quot;">​</a></h2><ul><li><a href="./LoadShedPressure.html"><code>LoadShedPressure</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody><tr><td><a id="property-eventloopdelayms"></a> <code>eventLoopDelayMs</code></td><td><code>number</code> | <code>undefined</code></td><td>The longest event-loop stall seen during the last interval, in milliseconds (how late the latest tick of a 10 ms timer ran: a mean would hide one 200 ms block among a hundred ticks). <code>undefined</code> until the first sample, and when <code>maxEventLoopDelayMs</code> is not set.</td></tr><tr><td><a id="property-heapusedbytes"></a> <code>heapUsedBytes</code></td><td><code>number</code> | <code>undefined</code></td><td>V8 heap in use, in bytes (<code>process.memoryUsage().heapUsed</code>), when measured.</td></tr><tr><td><a id="property-rssbytes"></a> <code>rssBytes</code></td><td><code>number</code> | <code>undefined</code></td><td>Resident set size, in bytes (<code>process.memoryUsage.rss()</code>), when measured.</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/PressureSample.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const PressureSample = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  PressureSample as default
};
