// Type-level side of declared responses: what a handler may answer under each declared status,
// and what `hc<AppType>` sees for each status (the declared schema, not what the handler built).
import type { HandlerResponse, TypedResponse } from 'hono/types'
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status'
import type { JSONParsed } from 'hono/utils/types'
import type { SchemaInput } from '../validate/types'
import type { HandlerOutput } from './hono-types'

/** The `responses` of a route as inferred from `opts.openapi.responses`. */
export type ResponsesMeta = { [status: number]: { schema?: unknown; contentType?: string } }

/**
 * True when a declared response carries a JSON schema: no `contentType`, or a JSON one spelled
 * as a literal (a `contentType` typed only as `string` is not checked).
 */
type IsJSON<M> = M extends { schema: infer S }
  ? unknown extends S
    ? false
    : M extends { contentType: infer C }
      ? C extends `application/${string}json${string}`
        ? true
        : false
      : true
  : false

/** The body a declared JSON response carries, as the client reads it. */
type DeclaredBody<M> = M extends { schema: infer S } ? JSONParsed<SchemaInput<S>> : never

/** A plain `Response` (a stream, `c.body()`, `new Response()`): not typed, so not checked. */
type Untyped = Response & {
  readonly _data?: never
  readonly _status?: never
  readonly _format?: never
}

/** What a handler may answer under one declared status. */
type Answer<M, St extends StatusCode> =
  IsJSON<M> extends true
    ? TypedResponse<DeclaredBody<M>, St, 'json'>
    : // biome-ignore lint/suspicious/noExplicitAny: a status without a JSON schema: any body
      TypedResponse<any, St, any>

type Answers<O> =
  | { [K in keyof O]: Answer<O[K], Extract<K, StatusCode>> }[keyof O]
  // `c.json(body)` names no status: Hono types it as any status, and sends 200. (Being the
  // union of all statuses, this also admits a named status with a body that fits 200's schema;
  // `StatusCheck` catches those.)
  | (200 extends keyof O ? Answer<O[200], ContentfulStatusCode> : never)

/**
 * What a route's handler may return. Without declared responses, anything Hono allows. With
 * them, each typed answer (`c.json()`, `c.text()`, …) must have a declared status and, where that
 * status declares a JSON schema, a JSON body that fits it (properties the schema does not declare
 * are allowed by type and stripped at run time); an untyped `Response` passes.
 */
export type AllowedResponse<O> = [keyof O] extends [never]
  ? // biome-ignore lint/suspicious/noExplicitAny: Hono's own handler response
    HandlerResponse<any>
  : Answers<O> | Untyped | Promise<Answers<O> | Untyped>

/**
 * The statuses a handler names that the route does not declare, or whose answer does not fit
 * that status's declaration (never when all fit).
 */
type Undeclared<R, O> = R extends { _status: infer St }
  ? [ContentfulStatusCode] extends [St]
    ? never
    : St extends keyof O
      ? R extends Answer<O[St], Extract<St, StatusCode>>
        ? never
        : St
      : St
  : never

/**
 * The rest parameter of a route method: empty when every status the handler names is declared
 * and its answer fits the declaration, otherwise one required argument that no call passes, so the call fails to compile ("Expected 4
 * arguments") and the label names the status. It complements `AllowedResponse`, which cannot tell
 * a named status from the unnamed one (`c.json(body)`, typed as any status).
 */
export type StatusCheck<Res, O> = [keyof O] extends [never]
  ? []
  : [Undeclared<Awaited<Res>, O>] extends [never]
    ? []
    : [
        undeclared_status: `status ${Undeclared<Awaited<Res>, O> & number} is not declared, or its body does not fit`,
      ]

/** What the client sees under one declared status. */
type StatusOutput<K, M, Out> =
  IsJSON<M> extends true
    ? TypedResponse<DeclaredBody<M>, Extract<K, StatusCode>, 'json'>
    : [Extract<Out, { _status: K }>] extends [never]
      ? TypedResponse<unknown, Extract<K, StatusCode>>
      : Extract<Out, { _status: K }>

/**
 * What `hc<AppType>` sees for a route: without declared responses, what the handler returns (as
 * Hono types it); with them, one answer per declared status: the schema's type where a JSON
 * schema is declared, else what the handler gives under that status.
 */
export type RouteOutput<Res, O> = [keyof O] extends [never]
  ? HandlerOutput<Res>
  : { [K in keyof O]: StatusOutput<K, O[K], HandlerOutput<Res>> }[keyof O]
