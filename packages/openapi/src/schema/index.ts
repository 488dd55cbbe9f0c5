export { toOpenAPISchema } from './convert'
export type { OpenAPISchema, OpenAPISchemaType } from './types'
