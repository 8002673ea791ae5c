/** The runner's calls to the API: one POST with a JSON body, its answer read whole within one deadline. */

/** A whole call, answer body included: a lease answer is a few hundred KB at most (the API pages it). */
export const CALL_TIMEOUT_MS = 15_000;
/** An answer larger than this is not the API's: it is not read further. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The API refused the runner's key: it stops rather than retry. */
export class RunnerRefused extends Error {}
/** The API found a request malformed: sent again it would be refused again. */
export class CallRefused extends Error {}

export interface CallTarget {
  apiUrl: string;
  runnerKey: string;
}

/** Why a call failed, from what fetch or the body's stream threw: the deadline, or the cause undici names. */
function reason(error: unknown, timeoutMs: number): string {
  // Read by shape: undici's errors and DOMExceptions may come from another realm than this module's Error.
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as { name?: unknown; message?: unknown; cause?: { message?: unknown } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `the ${timeoutMs / 1000} s deadline passed`;
  const cause = typeof e.cause?.message === 'string' && e.cause.message !== '' ? `: ${e.cause.message}` : '';
  return `${String(e.message ?? 'failed')}${cause}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

class TooLarge extends Error {}

/** The answer's body, whole, or an error that says how far it came. */
async function readBody(response: Response, path: string, timeoutMs: number): Promise<string> {
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    if (response.body) {
      for await (const chunk of response.body) {
        received += chunk.byteLength;
        if (received > MAX_ANSWER_BYTES) {
          await response.body.cancel().catch(() => undefined);
          throw new TooLarge(`${path} answered ${response.status} with a body over ${MAX_ANSWER_BYTES} bytes: not read`);
        }
        chunks.push(Buffer.from(chunk));
      }
    }
  } catch (error) {
    if (error instanceof TooLarge) throw error;
    const expected = response.headers.get('content-length');
    throw new Error(`${path} answered ${response.status}, but its body was cut off after ${received}${expected ? ` of ${expected}` : ''} bytes (${reason(error, timeoutMs)}): nothing of it was used`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * POSTs `body` to the API with the runner key, within `timeoutMs` for the whole call. Throws RunnerRefused for 401
 * and 403, CallRefused for 400, and otherwise an error that says what happened: no answer, an answer whose body did
 * not arrive whole, an answer that is not JSON, or an error status with its message.
 */
export async function callApi<T>(target: CallTarget, path: string, body: object, timeoutMs = CALL_TIMEOUT_MS): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${target.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.runnerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new Error(`${path}: no answer (${reason(error, timeoutMs)})`);
  }
  const text = await readBody(response, path, timeoutMs);
  // An error page of a proxy is not JSON: the status says enough below; a 200 that is not JSON is said as such.
  const answer = parseJson(text) as (T & { message?: string; details?: unknown }) | null;
  if (response.status === 401 || response.status === 403) throw new RunnerRefused(`the API refused this runner: ${answer?.message ?? response.status}`);
  if (response.status === 400) throw new CallRefused(`${path} refused: ${JSON.stringify(answer?.details ?? answer?.message ?? null).slice(0, 500)}`);
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${answer?.message ?? text.slice(0, 200)}`);
  if (answer === null || typeof answer !== 'object') throw new Error(`${path} answered ${response.status} with a body that is not a JSON object (${text.length} characters)`);
  return answer;
}
