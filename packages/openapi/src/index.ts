/** @palisade/openapi — the OpenAPI wrapper; filled in by the OpenAPI issue. */
export const OPENAPI_VERSION = '3.1.0' as const
