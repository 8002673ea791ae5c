/** The error an SSL run fails with when its certificate expires within `alertDaysBeforeExpiry`. */
export const expiringWords = (days: number, threshold: number) => `certificate expires in ${days} days (alert at ${threshold})`;
const EXPIRING = /^certificate expires in (-?\d+) days \(alert at \d+\)$/;

/** The days a run's error says the certificate has left, when that is why it failed; null for any other error. */
export function expiringDays(error: string | null): number | null {
  const match = error === null ? null : EXPIRING.exec(error);
  return match ? Number(match[1]) : null;
}
