// The README's identity-provider recipes, each against a token shaped like that provider's (alg,
// kid, iss / aud / azp / scope shapes), signed by a local key and served by a JWKS server on
// loopback. Where a recipe uses discovery, the issuer is the loopback server with the provider's
// path shape; where it names a JWKS URL, the issuer is the provider's own and only the URL is ours.
import { Hono } from 'hono'
import type { JWTPayload } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type JwksServer,
  signWith,
  startJwksServer,
  type TestKey,
  testKey,
} from '../../test/jwks-server'
import { type JwtAuthOptions, jwtAuth } from './index'

interface Recipe {
  name: string
  key: () => Promise<TestKey>
  /** The README's options; `origin` is the loopback server standing in for the provider. */
  options: (origin: string, jwksUrl: string) => JwtAuthOptions
  /** Claims and header of a token the provider issues for this API. */
  token: (origin: string) => { claims: JWTPayload; header?: Record<string, unknown> }
  /** Tokens of the same provider that this API must refuse, with the expected status. */
  refused: (origin: string) => [string, JWTPayload, number, Record<string, unknown>?][]
}

const now = () => Math.floor(Date.now() / 1000)

const recipes: Recipe[] = [
  {
    name: 'Auth0',
    key: () => testKey('RS256', 'mX9zq3Jt2lHAm6d9kYqGdKRKwz'),
    options: (origin) => ({
      issuer: `${origin}/`, // Auth0 issuers end with a slash: https://TENANT.auth0.com/
      discovery: true,
      audience: 'https://api.example.com',
      typ: 'at+jwt',
      scopes: ['read:items'],
    }),
    token: (origin) => ({
      header: { typ: 'at+jwt' },
      claims: {
        iss: `${origin}/`,
        sub: 'auth0|64f1c0ffee0123456789abcd',
        aud: ['https://api.example.com', `${origin}/userinfo`],
        azp: 'c1ientIdOfTheSpa0123456789abcdE',
        scope: 'openid profile read:items',
      },
    }),
    refused: (origin) => [
      [
        'an ID token (typ JWT)',
        { iss: `${origin}/`, aud: 'https://api.example.com', scope: 'read:items' },
        401,
        { typ: 'JWT' },
      ],
      [
        'another API',
        { iss: `${origin}/`, aud: 'https://other.example.com', scope: 'read:items' },
        401,
        { typ: 'at+jwt' },
      ],
      [
        'no read:items',
        { iss: `${origin}/`, aud: 'https://api.example.com', scope: 'openid' },
        403,
        { typ: 'at+jwt' },
      ],
    ],
  },
  {
    name: 'Clerk',
    key: () => testKey('RS256', 'ins_2abcDEFghiJKLmnoPQRstuVWxyz'),
    options: (_, jwksUrl) => ({
      jwks: jwksUrl, // https://<frontend-api>/.well-known/jwks.json
      issuer: 'https://clerk.example.com',
      azp: ['https://app.example.com', 'http://localhost:3000'],
    }),
    token: () => ({
      claims: {
        iss: 'https://clerk.example.com',
        sub: 'user_2abcDEFghiJKLmnoPQRstuVWxyz',
        sid: 'sess_2abcDEFghiJKLmnoPQRstuVWxyz',
        azp: 'https://app.example.com',
        nbf: now() - 10,
        v: 2,
      },
    }),
    refused: () => [
      [
        'another origin (azp)',
        { iss: 'https://clerk.example.com', azp: 'https://evil.example' },
        401,
      ],
      ['no azp', { iss: 'https://clerk.example.com' }, 401],
      [
        'another Clerk instance',
        { iss: 'https://clerk.other.com', azp: 'https://app.example.com' },
        401,
      ],
    ],
  },
  {
    name: 'Supabase',
    key: () => testKey('ES256', '8f1f3c2e-6b1a-4a8e-9a51-3c1f0a9e7d21'),
    options: (_, jwksUrl) => ({
      jwks: jwksUrl, // https://<project-ref>.supabase.co/auth/v1/.well-known/jwks.json
      issuer: 'https://abcdefghijklmnop.supabase.co/auth/v1',
      audience: 'authenticated',
    }),
    token: () => ({
      claims: {
        iss: 'https://abcdefghijklmnop.supabase.co/auth/v1',
        sub: '2f1e0c4b-9d8a-4b7c-a6e5-f4d3c2b1a098',
        aud: 'authenticated',
        role: 'authenticated',
        aal: 'aal1',
        session_id: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
        is_anonymous: false,
        email: 'ada@example.com',
      },
    }),
    refused: () => [
      [
        'the anon key (role anon, no user)',
        { iss: 'https://abcdefghijklmnop.supabase.co/auth/v1', aud: 'anon', role: 'anon' },
        401,
      ],
      [
        'another project',
        { iss: 'https://zzzzzzzzzzzzzzzz.supabase.co/auth/v1', aud: 'authenticated' },
        401,
      ],
    ],
  },
  {
    name: 'Cognito',
    key: () => testKey('RS256', 'abcdEFGHijklMNOPqrstUVWXyz0123456789+/AB='),
    options: (_, jwksUrl) => ({
      jwks: jwksUrl, // https://cognito-idp.<region>.amazonaws.com/<pool-id>/.well-known/jwks.json
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
      claims: { token_use: 'access', client_id: '1example23456789' },
      scopes: ['items/read'],
    }),
    token: () => ({
      claims: {
        iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
        sub: 'aaaaaaaa-bbbb-cccc-dddd-example',
        token_use: 'access',
        client_id: '1example23456789',
        scope: 'aws.cognito.signin.user.admin items/read',
        username: 'ada',
        auth_time: now() - 60,
        jti: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
        origin_jti: 'aaaaaaaa-bbbb-cccc-dddd-ffffffffffff',
        event_id: 'aaaaaaaa-bbbb-cccc-dddd-000000000000',
      },
    }),
    refused: () => [
      [
        'an ID token (token_use id)',
        {
          iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
          token_use: 'id',
          aud: '1example23456789',
          client_id: '1example23456789',
          scope: 'items/read',
        },
        401,
      ],
      [
        'another app client',
        {
          iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
          token_use: 'access',
          client_id: '9other',
          scope: 'items/read',
        },
        401,
      ],
      [
        'no items/read',
        {
          iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
          token_use: 'access',
          client_id: '1example23456789',
          scope: 'aws.cognito.signin.user.admin',
        },
        403,
      ],
    ],
  },
  {
    name: 'Firebase',
    key: () => testKey('RS256', 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'),
    options: (_, jwksUrl) => ({
      // https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com
      jwks: jwksUrl,
      issuer: 'https://securetoken.google.com/my-project',
      audience: 'my-project',
      requireExp: true,
    }),
    token: () => ({
      claims: {
        iss: 'https://securetoken.google.com/my-project',
        aud: 'my-project',
        sub: 'Xy12AbCdEfGhIjKlMnOpQrStUv34',
        user_id: 'Xy12AbCdEfGhIjKlMnOpQrStUv34',
        auth_time: now() - 60,
        email: 'ada@example.com',
        email_verified: true,
        firebase: { identities: { email: ['ada@example.com'] }, sign_in_provider: 'password' },
      },
    }),
    refused: () => [
      ['another project', { iss: 'https://securetoken.google.com/other', aud: 'other' }, 401],
      [
        'no exp',
        { iss: 'https://securetoken.google.com/my-project', aud: 'my-project', exp: undefined },
        401,
      ],
    ],
  },
  {
    name: 'Keycloak',
    key: () => testKey('RS256', 'Zk3v1q2w3e4r5t6y7u8i9o0pAsDfGhJkL'),
    options: (origin) => ({
      issuer: `${origin}/realms/acme`, // https://kc.example.com/realms/<realm>
      discovery: true,
      azp: 'orders-frontend',
      scopes: ['orders'],
    }),
    token: (origin) => ({
      claims: {
        iss: `${origin}/realms/acme`,
        sub: 'f1e2d3c4-b5a6-4789-8abc-def012345678',
        aud: 'account',
        typ: 'Bearer',
        azp: 'orders-frontend',
        sid: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        scope: 'openid profile email orders',
        realm_access: { roles: ['offline_access', 'uma_authorization'] },
        preferred_username: 'ada',
      },
    }),
    refused: (origin) => [
      [
        'another realm',
        { iss: `${origin}/realms/other`, azp: 'orders-frontend', scope: 'orders' },
        401,
      ],
      ['another client', { iss: `${origin}/realms/acme`, azp: 'admin-cli', scope: 'orders' }, 401],
      [
        'no orders scope',
        { iss: `${origin}/realms/acme`, azp: 'orders-frontend', scope: 'openid' },
        403,
      ],
    ],
  },
  {
    name: 'Entra ID',
    key: () => testKey('RS256', 'KQ2tAcrE7lBaViGmN0cb8Zc3ZJk'),
    options: (origin) => ({
      // https://login.microsoftonline.com/<tenant-id>/v2.0
      issuer: `${origin}/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0`,
      discovery: true,
      audience: '6e74172b-be56-4843-9ff4-e66a39bb12e3',
      scopes: ['access_as_user'],
    }),
    token: (origin) => ({
      header: { x5t: 'KQ2tAcrE7lBaViGmN0cb8Zc3ZJk' },
      claims: {
        iss: `${origin}/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0`,
        aud: '6e74172b-be56-4843-9ff4-e66a39bb12e3',
        azp: 'a1b2c3d4-0000-4000-8000-123456789abc',
        azpacr: '0',
        scp: 'User.Read access_as_user',
        tid: '72f988bf-86f1-41af-91ab-2d7cd011db47',
        oid: '00000000-0000-0000-66f3-3332eca7ea81',
        sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
        ver: '2.0',
      },
    }),
    refused: (origin) => [
      [
        'another tenant',
        {
          iss: `${origin}/00000000-0000-0000-0000-000000000000/v2.0`,
          aud: '6e74172b-be56-4843-9ff4-e66a39bb12e3',
          scp: 'access_as_user',
        },
        401,
      ],
      [
        'a Graph token (other audience)',
        {
          iss: `${origin}/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0`,
          aud: '00000003-0000-0000-c000-000000000000',
          scp: 'access_as_user',
        },
        401,
      ],
      [
        'no access_as_user',
        {
          iss: `${origin}/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0`,
          aud: '6e74172b-be56-4843-9ff4-e66a39bb12e3',
          scp: 'User.Read',
        },
        403,
      ],
    ],
  },
]

describe.each(recipes)('recipe: $name', (recipe) => {
  let server: JwksServer
  let key: TestKey
  let app: Hono
  beforeAll(async () => {
    key = await recipe.key()
    // A second, unrelated key in the set, as providers publish the next key before rotating.
    server = await startJwksServer([(await testKey('ES256', 'next')).jwk, key.jwk])
    app = new Hono()
    app.use('/api/*', jwtAuth(recipe.options(server.origin, server.jwksUrl)))
    app.get('/api/me', (c) => c.json(c.get('jwtPayload')))
  }, 30_000) // RSA key generation is slow on a loaded machine
  afterAll(() => server.close())
  const call = (token: string) =>
    app.request('/api/me', { headers: { Authorization: `Bearer ${token}` } })

  it('accepts a token shaped like the provider issues', async () => {
    const { claims, header } = recipe.token(server.origin)
    const res = await call(await signWith(key, claims, header))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ sub: claims.sub })
  })

  it('refuses the same provider tokens meant for something else', async () => {
    for (const [label, claims, status, header] of recipe.refused(server.origin)) {
      const res = await call(await signWith(key, claims, header))
      expect([label, res.status]).toEqual([label, status])
    }
  })

  it('refuses a token of the right shape signed by another key with the same kid', async () => {
    const { claims, header } = recipe.token(server.origin)
    const impostor = await testKey(key.alg, key.kid)
    expect((await call(await signWith(impostor, claims, header))).status).toBe(401)
  }, 30_000)
})
