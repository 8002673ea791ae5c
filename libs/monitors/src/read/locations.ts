/** A runner process of a location: active while it leases (within the lease time). */
export interface RunnerView {
  id: string;
  lastSeenAt: string;
  state: 'ACTIVE' | 'LOST';
}

/** A place probes run from, in Checkly's shape (`region`, `name`), with whether it is running. */
export interface LocationView {
  region: string;
  name: string;
  /** Where its probes run: `embedded` inside the Vigil process, `runner` in runner processes of this account. */
  kind: 'embedded' | 'runner';
  /** UP while a runner reports; DOWN when all its runners stopped; NEW before a first runner reported. */
  status: 'UP' | 'DOWN' | 'NEW';
  /** Since when the location is DOWN. */
  downSince?: string | null;
  allowPrivateTargets?: boolean;
  runners?: RunnerView[];
}

/** The embedded location: probes run inside the Vigil process that runs background work. */
export const LOCAL_LOCATION = 'local';

export const LOCATIONS: LocationView[] = [{ region: LOCAL_LOCATION, name: 'Inside Vigil', kind: 'embedded', status: 'UP' }];
