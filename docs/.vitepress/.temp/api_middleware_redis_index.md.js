import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"@palisade/middleware/redis","description":"","frontmatter":{},"headers":[],"relativePath":"api/middleware/redis/index.md","filePath":"api/middleware/redis/index.md"}');
const _sfc_main = { name: "api/middleware/redis/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="palisade-middleware-redis" tabindex="-1">@palisade/middleware/redis <a class="header-anchor" href="#palisade-middleware-redis" aria-label="Permalink to &quot;@palisade/middleware/redis&quot;">​</a></h1><p>Redis (and Redis Cluster) stores for rate limits, sessions and API keys, through any client.</p><h2 id="classes" tabindex="-1">Classes <a class="header-anchor" href="#classes" aria-label="Permalink to &quot;Classes&quot;">​</a></h2><ul><li><a href="./classes/RedisApiKeyStore.html">RedisApiKeyStore</a></li><li><a href="./classes/RedisConcurrencyStore.html">RedisConcurrencyStore</a></li><li><a href="./classes/RedisIdempotencyStore.html">RedisIdempotencyStore</a></li><li><a href="./classes/RedisNonceStore.html">RedisNonceStore</a></li><li><a href="./classes/RedisRateLimitStore.html">RedisRateLimitStore</a></li><li><a href="./classes/RedisSessionStore.html">RedisSessionStore</a></li></ul><h2 id="interfaces" tabindex="-1">Interfaces <a class="header-anchor" href="#interfaces" aria-label="Permalink to &quot;Interfaces&quot;">​</a></h2><ul><li><a href="./interfaces/IoredisLike.html">IoredisLike</a></li><li><a href="./interfaces/NodeRedisClusterLike.html">NodeRedisClusterLike</a></li><li><a href="./interfaces/NodeRedisLike.html">NodeRedisLike</a></li><li><a href="./interfaces/RedisApiKeyStoreOptions.html">RedisApiKeyStoreOptions</a></li><li><a href="./interfaces/RedisConcurrencyStoreOptions.html">RedisConcurrencyStoreOptions</a></li><li><a href="./interfaces/RedisIdempotencyStoreOptions.html">RedisIdempotencyStoreOptions</a></li><li><a href="./interfaces/RedisNonceStoreOptions.html">RedisNonceStoreOptions</a></li><li><a href="./interfaces/RedisRateLimitStoreOptions.html">RedisRateLimitStoreOptions</a></li><li><a href="./interfaces/RedisSessionStoreOptions.html">RedisSessionStoreOptions</a></li><li><a href="./interfaces/RedisStoreOptions.html">RedisStoreOptions</a></li></ul><h2 id="type-aliases" tabindex="-1">Type Aliases <a class="header-anchor" href="#type-aliases" aria-label="Permalink to &quot;Type Aliases&quot;">​</a></h2><ul><li><a href="./type-aliases/RedisCommand.html">RedisCommand</a></li></ul><h2 id="functions" tabindex="-1">Functions <a class="header-anchor" href="#functions" aria-label="Permalink to &quot;Functions&quot;">​</a></h2><ul><li><a href="./functions/fromIoredis.html">fromIoredis</a></li><li><a href="./functions/fromNodeRedis.html">fromNodeRedis</a></li><li><a href="./functions/fromNodeRedisCluster.html">fromNodeRedisCluster</a></li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/middleware/redis/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
