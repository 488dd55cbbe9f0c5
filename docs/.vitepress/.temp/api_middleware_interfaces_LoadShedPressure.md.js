import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: LoadShedPressure","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/interfaces/LoadShedPressure.md","filePath":"api/middleware/interfaces/LoadShedPressure.md"}');
const _sfc_main = { name: "api/middleware/interfaces/LoadShedPressure.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="interface-loadshedpressure" tabindex="-1">Interface: LoadShedPressure <a class="header-anchor" href="#interface-loadshedpressure" aria-label="Permalink to &quot;Interface: LoadShedPressure&quot;">​</a></h1><p>What <code>pressure()</code> reports: the last sample, the requests in flight and the limit passed, if any. For a health or metrics endpoint.</p><h2 id="extends" tabindex="-1">Extends <a class="header-anchor" href="#extends" aria-label="Permalink to &quot;Extends&quot;">​</a></h2><ul><li><a href="./PressureSample.html"><code>PressureSample</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><table tabindex="0"><thead><tr><th>Property</th><th>Type</th><th>Description</th><th>Inherited from</th></tr></thead><tbody><tr><td><a id="property-eventloopdelayms"></a> <code>eventLoopDelayMs</code></td><td><code>number</code> | <code>undefined</code></td><td>The longest event-loop stall seen during the last interval, in milliseconds (how late the latest tick of a 10 ms timer ran: a mean would hide one 200 ms block among a hundred ticks). <code>undefined</code> until the first sample, and when <code>maxEventLoopDelayMs</code> is not set.</td><td><a href="./PressureSample.html"><code>PressureSample</code></a>.<a href="./PressureSample.html#property-eventloopdelayms"><code>eventLoopDelayMs</code></a></td></tr><tr><td><a id="property-heapusedbytes"></a> <code>heapUsedBytes</code></td><td><code>number</code> | <code>undefined</code></td><td>V8 heap in use, in bytes (<code>process.memoryUsage().heapUsed</code>), when measured.</td><td><a href="./PressureSample.html"><code>PressureSample</code></a>.<a href="./PressureSample.html#property-heapusedbytes"><code>heapUsedBytes</code></a></td></tr><tr><td><a id="property-inflight"></a> <code>inFlight</code></td><td><code>number</code></td><td>-</td><td>-</td></tr><tr><td><a id="property-overloaded"></a> <code>overloaded</code></td><td><a href="./../type-aliases/LoadShedReason.html"><code>LoadShedReason</code></a> | <code>undefined</code></td><td>-</td><td>-</td></tr><tr><td><a id="property-rssbytes"></a> <code>rssBytes</code></td><td><code>number</code> | <code>undefined</code></td><td>Resident set size, in bytes (<code>process.memoryUsage.rss()</code>), when measured.</td><td><a href="./PressureSample.html"><code>PressureSample</code></a>.<a href="./PressureSample.html#property-rssbytes"><code>rssBytes</code></a></td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/interfaces/LoadShedPressure.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const LoadShedPressure = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  LoadShedPressure as default
};
