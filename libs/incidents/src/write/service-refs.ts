import { ViolationDetail } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
import { BatchingReadStore } from '../../../read-store/src/batched-reads';
import { ServiceDirectory, ServiceView } from '../../../status-pages/src/status-pages.api';

/**
 * The services an incident or a template names, checked at `services[i].id`: each a UUID of a service of
 * this account, named once. A non-string id is skipped (the shape pass reports it); the rest are looked up together.
 */
export async function checkServiceRefs(
  directory: ServiceDirectory,
  accountId: string,
  ids: unknown[],
): Promise<{ details: ViolationDetail[]; found: Map<string, ServiceView> }> {
  const details: ViolationDetail[] = [];
  const seen = new Map<string, number>();
  ids.forEach((id, index) => {
    if (typeof id !== 'string') return;
    const path = `services[${index}].id`;
    if (!isUuid(id)) return void details.push({ path, message: 'id must be the id of a service of this account' });
    const first = seen.get(id.toLowerCase());
    if (first !== undefined) return void details.push({ path, message: `id duplicates services[${first}].id` });
    seen.set(id.toLowerCase(), index);
  });
  // The services and their checks in one round trip where reads are round trips.
  const found = seen.size > 0 ? await BatchingReadStore.together(() => directory.getMany(accountId, [...seen.keys()])) : new Map<string, ServiceView>();
  for (const [id, index] of seen) if (!found.has(id)) details.push({ path: `services[${index}].id`, message: 'id names no service of this account' });
  return { details: details.sort((a, b) => pathIndex(a.path) - pathIndex(b.path)), found };
}

const pathIndex = (path: string) => Number(/\[(\d+)\]/.exec(path)?.[1] ?? 0);
