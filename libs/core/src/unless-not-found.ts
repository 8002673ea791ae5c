import { NotFoundError } from './errors';

/** The work's result, or undefined when what it acts on is gone (deleted meanwhile): nothing is left to do. */
export function unlessNotFound<T>(work: Promise<T>): Promise<T | undefined> {
  return work.catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
}
