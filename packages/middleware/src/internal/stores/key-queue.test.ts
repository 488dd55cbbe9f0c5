import { describe, expect, it } from 'vitest'
import { KeyedQueue } from './key-queue'

const tick = () => new Promise((r) => setTimeout(r, 1))

describe('KeyedQueue', () => {
  it('runs tasks of one key one after another, in order', async () => {
    const queue = new KeyedQueue()
    const log: string[] = []
    const task = (name: string) => async () => {
      log.push(`${name} start`)
      await tick()
      log.push(`${name} end`)
      return name
    }
    const results = await Promise.all([queue.run('k', task('a')), queue.run('k', task('b'))])
    expect(results).toEqual(['a', 'b'])
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end'])
  })

  it('runs tasks of different keys in parallel', async () => {
    const queue = new KeyedQueue()
    const log: string[] = []
    const task = (name: string) => async () => {
      log.push(`${name} start`)
      await tick()
      log.push(`${name} end`)
    }
    await Promise.all([queue.run('a', task('a')), queue.run('b', task('b'))])
    expect(log.slice(0, 2)).toEqual(['a start', 'b start'])
  })

  it('a failed task rejects its caller but does not block the next one', async () => {
    const queue = new KeyedQueue()
    const failed = queue.run('k', async () => {
      throw new Error('boom')
    })
    const next = queue.run('k', async () => 'ok')
    await expect(failed).rejects.toThrow('boom')
    await expect(next).resolves.toBe('ok')
  })

  it('forgets a key once its queue is empty (memory follows the keys in flight)', async () => {
    const queue = new KeyedQueue()
    await Promise.all(Array.from({ length: 100 }, (_, i) => queue.run(`k${i}`, async () => i)))
    await tick()
    expect(queue.size).toBe(0)
  })
})
