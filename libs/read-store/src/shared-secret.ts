import { randomBytes } from 'node:crypto';
import { ReadStore, SETTINGS } from './read-store.port';
import { VersionedRecords } from './versioned-records';

/** A random 32-byte secret every instance sharing the read store agrees on: the first insert wins. */
export async function sharedSecret(store: ReadStore, name: string): Promise<Buffer> {
  await store.ensureCollection({ name: SETTINGS, indexes: [] });
  const settings = new VersionedRecords(store, SETTINGS);
  await settings.insert({ id: name, value: randomBytes(32).toString('base64') });
  const stored = await settings.get(name);
  return Buffer.from(stored!.doc.value, 'base64');
}
