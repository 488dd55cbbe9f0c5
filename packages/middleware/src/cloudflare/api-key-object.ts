import type { ApiKeyInfo } from '../api-key/store'
import { readRecord } from '../api-key/store'

/** One key's object keeps its record here (the name `add` has always used). */
const RECORD = 'record'
/** An id's object keeps the hashes of the id's secrets here. */
const INDEX = 'keyIndex'

/** A key's stored record: `expiresAt: null` tells the object's alarm it never expires. */
interface StoredKey {
  expiresAt: null
  id?: string
  metadata?: Record<string, unknown>
  /** The lifecycle fields (`expiresAt` of the key is `life.expiresAt`, not the object's). */
  life?: Omit<ApiKeyInfo, 'id' | 'metadata'>
}

/** The part of a Durable Object's storage these operations use. */
interface KeyStorage {
  get<T>(key: string): Promise<T | undefined>
  put(key: string, value: unknown): Promise<void>
}

type Operation = (body: Record<string, unknown>) => Promise<object | string>

const PATCHES = {
  // A rotation's overlap: only ever lowered.
  expiresAt: (old: number | undefined, at: number) => (old !== undefined && old <= at ? old : at),
  // A first revocation time stays.
  revokedAt: (old: number | undefined, at: number) => old ?? at,
  lastUsedAt: (_old: number | undefined, at: number) => at,
} as const

function info(record: StoredKey | undefined): ApiKeyInfo | null {
  if (record?.id === undefined) return null
  return readRecord({ ...record.life, id: record.id, metadata: record.metadata })
}

/**
 * The API-key operations of `PalisadeStoreObject` (`key/*` on a key's object, named by its hash;
 * `keyidx/*` on an id's object). Each runs inside the object, so a patch is a read and a write no
 * other request interleaves with.
 */
export function apiKeyOperations(storageOf: () => KeyStorage): Record<string, Operation> {
  // A getter: the object's fields are set after its operation table is built.
  const read = () => storageOf().get<StoredKey>(RECORD)
  const put = (name: string, value: unknown) => storageOf().put(name, value)
  const hashes = async () => (await storageOf().get<{ hashes: string[] }>(INDEX))?.hashes ?? []
  return {
    'key/add': async ({ id, metadata }) => {
      if (typeof id !== 'string' || (metadata !== undefined && typeof metadata !== 'object')) {
        return 'key/add needs an id and optional metadata'
      }
      const current = await read()
      // The first id stays: adding a key again only replaces its metadata.
      const record: StoredKey = { expiresAt: null, id: current?.id ?? id }
      if (current?.life !== undefined) record.life = current.life
      if (metadata !== undefined && metadata !== null) {
        record.metadata = metadata as Record<string, unknown>
      }
      await put(RECORD, record)
      return { id: record.id }
    },
    'key/get': async () => ({ info: info(await read()) }),
    'key/put': async ({ record }) => {
      const checked = readRecord(record)
      if (checked === null) return 'key/put needs a record with an id'
      const previous = (await read())?.id ?? null
      const { id, metadata, ...life } = checked
      await put(RECORD, { expiresAt: null, id, metadata, life } satisfies StoredKey)
      return { previous }
    },
    'key/patch': async ({ field, at }) => {
      if (typeof field !== 'string' || !Object.hasOwn(PATCHES, field) || typeof at !== 'number') {
        return 'key/patch needs a field (expiresAt, revokedAt, lastUsedAt) and a time'
      }
      const current = await read()
      if (current?.id === undefined) return { found: false }
      const name = field as keyof typeof PATCHES
      const life = { ...current.life, [name]: PATCHES[name](current.life?.[name], at) }
      await put(RECORD, { ...current, life })
      return { found: true }
    },
    'keyidx/add': async ({ hash }) => {
      if (typeof hash !== 'string') return 'keyidx/add needs a hash'
      const list = await hashes()
      if (!list.includes(hash)) await put(INDEX, { expiresAt: null, hashes: [...list, hash] })
      return {}
    },
    'keyidx/remove': async ({ hash }) => {
      if (typeof hash !== 'string') return 'keyidx/remove needs a hash'
      const list = await hashes()
      if (list.includes(hash)) {
        await put(INDEX, { expiresAt: null, hashes: list.filter((h) => h !== hash) })
      }
      return {}
    },
    'keyidx/list': async () => ({ hashes: await hashes() }),
  }
}
