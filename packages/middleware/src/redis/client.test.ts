import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ioredisClient, nodeRedisClient } from '../../../../tests/redis/support'
import {
  firstKeyOf,
  fromIoredis,
  fromNodeRedis,
  fromNodeRedisCluster,
  isNoScriptError,
  parseJsonObject,
  type RedisCommand,
  redisScript,
  replyInteger,
  replyText,
  runScript,
} from './client'

// The documented one-line adapters, against the real clients and a real Redis.
const io = ioredisClient()
let nodeRedis: Awaited<ReturnType<typeof nodeRedisClient>>

beforeAll(async () => {
  nodeRedis = await nodeRedisClient()
})

afterAll(async () => {
  io.disconnect()
  await nodeRedis.close()
})

describe('client adapters', () => {
  it.each([
    ['ioredis', () => fromIoredis(io)],
    ['node-redis', () => fromNodeRedis(nodeRedis)],
  ])('%s: sends the command with its arguments and resolves the reply', async (_name, adapter) => {
    const send = adapter()
    expect(await send(['ECHO', 'hello world'])).toBe('hello world')
    expect(await send(['EVAL', 'return {1, ARGV[1]}', '0', 'two'])).toEqual([1, 'two'])
    expect(await send(['GET', 'palisade-test:adapter:never-set'])).toBeNull()
  })

  it.each([
    ['ioredis', () => fromIoredis(io)],
    ['node-redis', () => fromNodeRedis(nodeRedis)],
  ])('%s: rejects with the Redis error reply', async (_name, adapter) => {
    const error = await adapter()(['EVALSHA', 'f'.repeat(40), '0']).catch((e: unknown) => e)
    expect(isNoScriptError(error)).toBe(true)
  })
})

describe('reply helpers', () => {
  it.each([
    ['a string', 'abc', 'abc'],
    ['bytes', new TextEncoder().encode('zoë'), 'zoë'],
    ['null', null, null],
    ['a number', 5, null],
  ])('replyText reads %s', (_label, reply, expected) => {
    expect(replyText(reply)).toBe(expected)
  })

  it.each([
    ['a number', 7, 7],
    ['a negative numeric string', '-2', -2],
    ['a bigint', 9n, 9],
    ['a float', 1.5, null],
    ['a non-numeric string', '12a', null],
    ['null', null, null],
  ])('replyInteger reads %s', (_label, reply, expected) => {
    expect(replyInteger(reply)).toBe(expected)
  })

  it.each([
    ['an object', '{"a":1}', { a: 1 }],
    ['an array', '[1]', null],
    ['null', 'null', null],
    ['garbage', '{', null],
    ['a missing value', null, null],
  ])('parseJsonObject reads %s', (_label, reply, expected) => {
    expect(parseJsonObject(reply)).toEqual(expected)
  })

  it('recognises only NOSCRIPT replies as a missing script', () => {
    expect(isNoScriptError(new Error('NOSCRIPT No matching script. Please use EVAL.'))).toBe(true)
    expect(isNoScriptError(new Error('Connection is closed.'))).toBe(false)
    expect(isNoScriptError('NOSCRIPT')).toBe(true)
  })
})

describe('firstKeyOf', () => {
  it.each([
    [['EVALSHA', 'abc', '1', 'k1', '60000'], 'k1'],
    [['EVAL', 'return 1', '2', 'k1', 'k2'], 'k1'],
    [['evalsha', 'abc', '0', 'arg'], undefined],
    [['FCALL', 'fn', '1', 'k'], 'k'],
    [['SET', 'k', 'v', 'PX', '10'], 'k'],
    [['HMGET', 'k', 'id', 'metadata'], 'k'],
    [['PING'], undefined],
  ])('routes %j by %s', (args, key) => {
    expect(firstKeyOf(args)).toBe(key)
  })

  it('fromNodeRedisCluster passes the first key and asks for the master', async () => {
    const calls: unknown[][] = []
    const send = fromNodeRedisCluster({
      sendCommand: async (...call) => {
        calls.push(call)
        return 'OK'
      },
    })
    expect(await send(['EVALSHA', 'sha', '1', 'rl:k', '1000'])).toBe('OK')
    expect(calls).toEqual([['rl:k', false, ['EVALSHA', 'sha', '1', 'rl:k', '1000']]])
  })
})

describe('runScript', () => {
  const INCR = redisScript("return redis.call('INCR', KEYS[1])")

  it('sends EVALSHA with the declared keys, and EVAL once when Redis answers NOSCRIPT', async () => {
    const sent: string[][] = []
    const send: RedisCommand = async (args) => {
      sent.push(args)
      if (args[0] === 'EVALSHA') throw new Error('NOSCRIPT No matching script.')
      return 7
    }
    expect(await runScript(send, INCR, ['k{a}'], ['x'])).toBe(7)
    expect(sent.map((a) => a[0])).toEqual(['EVALSHA', 'EVAL'])
    expect(sent[0]?.slice(2)).toEqual(['1', 'k{a}', 'x'])
    expect(sent[0]?.[1]).toMatch(/^[0-9a-f]{40}$/)
    expect(sent[1]).toEqual(['EVAL', INCR.source, '1', 'k{a}', 'x'])
  })

  it('passes any other failure on without a second round trip', async () => {
    let calls = 0
    const send: RedisCommand = async () => {
      calls++
      throw new Error('OOM command not allowed')
    }
    await expect(runScript(send, INCR, ['k'], [])).rejects.toThrow('OOM')
    expect(calls).toBe(1)
  })
})
