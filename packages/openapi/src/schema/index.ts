export type { ComponentSink, ConvertOptions, SchemaConverter } from './convert'
export { toOpenAPISchema } from './convert'
export { component } from './names'
export type { OpenAPISchema, OpenAPISchemaType } from './types'
