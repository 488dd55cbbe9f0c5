import type { JWTPayload as JosePayload } from 'jose'
import { describe, expectTypeOf, it } from 'vitest'
import type { JWTPayload } from './payload'

describe('JWTPayload', () => {
  it('has the same shape as jose’s JWTPayload, in both directions', () => {
    expectTypeOf<JWTPayload>().toEqualTypeOf<JosePayload>()
    expectTypeOf<JosePayload>().toExtend<JWTPayload>()
    expectTypeOf<JWTPayload>().toExtend<JosePayload>()
  })
})
