// Type-level side of declared responses: what a handler may answer under each declared status,
// and what `hc<AppType>` sees for each status (the declared schema, not what the handler built).
import type { HandlerResponse, TypedResponse } from 'hono/types'
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status'
import type { JSONParsed } from 'hono/utils/types'
import type { SchemaInput } from '../validate/types'
import type { HandlerOutput } from './hono-types'

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

/** What a handler may answer under one declared status. */
type Answer<M, St extends StatusCode> =
  IsJSON<M> extends true
    ? TypedResponse<DeclaredBody<M>, St, 'json'>
    : // biome-ignore lint/suspicious/noExplicitAny: a status without a JSON schema: any body
      TypedResponse<any, St, any>

/**
 * What a route's handler may return: anything Hono allows. Whether each answer fits the declared
 * responses is checked by `StatusCheck`, so the error is reported at the handler and says which
 * status (and which properties) are wrong, instead of a mismatch with a union of every answer.
 */
// biome-ignore lint/suspicious/noExplicitAny: Hono's own handler response
export type AllowedResponse<_O> = HandlerResponse<any>

/** Top-level properties of a body `D` that do not fit the declared body `T` (or are missing). */
type FieldsOff<D, T> = D extends object
  ? T extends object
    ? {
        [K in keyof T]-?: K extends keyof D
          ? [D[K]] extends [T[K]]
            ? never
            : K
          : undefined extends T[K]
            ? never
            : K
      }[keyof T] &
        string
    : never
  : never

/** ` at 'name'` for the properties of answer `R` that do not fit declaration `M`, or nothing. */
type At<R, M> = R extends { _data: infer D }
  ? [FieldsOff<D, DeclaredBody<M>>] extends [never]
    ? ''
    : ` at '${FieldsOff<D, DeclaredBody<M>>}'`
  : ''

/** What is wrong with answer `R` under declared statuses `O`, as messages (never when it fits). */
type Problem<R, O> = R extends { _status: infer St }
  ? [ContentfulStatusCode] extends [St]
    ? // `c.json(body)` names no status: Hono types it as any status, and sends 200.
      200 extends keyof O
      ? R extends Answer<O[200], ContentfulStatusCode>
        ? never
        : `the body of status 200 does not fit its schema${At<R, O[200]>}`
      : 'an answer without a status is sent as 200, which is not declared in responses'
    : St extends keyof O
      ? R extends Answer<O[St], Extract<St, StatusCode>>
        ? never
        : `the body of status ${St & number} does not fit its schema${At<R, O[St]>}`
      : `status ${St & number} is not declared in responses`
  : never

/**
 * What the handler must also be when one of its answers does not fit the declared responses: an
 * object whose required properties are the messages (`status 201 is not declared in responses`,
 * `the body of status 200 does not fit its schema at 'name'`), which no function has. So tsc
 * reports the error at the handler, naming the status and the properties, not at the call
 * ("Expected 4 arguments") nor as a mismatch with every declared answer. `unknown` (no
 * constraint) when every answer fits or no responses are declared. An untyped `Response` (a
 * stream, `new Response()`) is not checked.
 */
export type StatusCheck<Res, O> = [keyof O] extends [never]
  ? unknown
  : [Problem<Awaited<Res>, O>] extends [never]
    ? unknown
    : { [K in Problem<Awaited<Res>, O>]: never }

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
