/** A place probes run from, in Checkly's shape. */
export interface LocationView {
  region: string;
  name: string;
  /** Where its probes run: `embedded` inside the Vigil process. */
  kind: 'embedded';
}

/** The embedded location: probes run inside the Vigil process that runs background work. */
export const LOCAL_LOCATION = 'local';

export const LOCATIONS: LocationView[] = [{ region: LOCAL_LOCATION, name: 'Inside Vigil', kind: 'embedded' }];
