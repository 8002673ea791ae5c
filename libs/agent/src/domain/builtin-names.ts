/**
 * Finding the incident a question names in its own words: "tell me about the Elevated API error rates
 * incident", "what caused the elevated api eror rate?". Words are compared with a little tolerance for
 * typos and plurals; a guess that is not clearly the one meant becomes a list to choose from.
 */

/** Words that say what is asked or what kind of thing is meant, not which one. */
const QUESTION_WORDS = new Set([
  'the', 'and', 'for', 'our', 'you', 'can', 'please', 'tell', 'about', 'what', 'whats', 'which', 'who', 'why', 'how', 'when', 'where',
  'happened', 'happen', 'caused', 'cause', 'causes', 'root', 'reason', 'behind', 'did', 'does', 'was', 'were', 'are', 'is', 'has', 'had', 'have',
  'incident', 'incidents', 'outage', 'details', 'detail', 'timeline', 'explain', 'describe', 'show', 'give', 'with', 'during', 'that', 'this',
  'there', 'any', 'latest', 'update', 'updates', 'status', 'summary', 'summarize', 'summarise', 'more', 'info', 'information', 'one', 'named',
  'called', 'from', 'last', 'past', 'week', 'weeks', 'month', 'months', 'today', 'yesterday', 'days', 'day', 'hours', 'ago', 'get', 'got',
  'lead', 'led', 'went', 'wrong', 'long', 'took', 'take', 'lasted', 'start', 'started', 'end', 'ended', 'issue', 'problem', 'postmortem', 'post', 'mortem', 'again', 'know', 'want', 'like', 'let', 'see',
]);

export const distinctiveWords = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/'s\b/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !QUESTION_WORDS.has(w));

/** Edit distance, stopping early once it exceeds `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length];
}

/** "failing", "failure", "failed" → "fail": enough stemming to match a question's words to a name's. */
const stem = (word: string) => word.replace(/(ing|ure|ed|es|s)$/, '').replace(/(.)\1$/, '$1');

/** Same word, allowing one typo from 4 letters and two from 8 ("eror" ~ "error", "rate" ~ "rates"). */
function similarWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length >= 4 && b.length >= 4 && stem(a).length >= 3 && stem(a) === stem(b)) return true;
  const shorter = Math.min(a.length, b.length);
  const allowed = shorter >= 8 ? 2 : shorter >= 4 ? 1 : 0;
  return allowed > 0 && editDistance(a, b, allowed) <= allowed;
}

interface NameMatch<T> {
  item: T;
  /** Share of the name's distinctive words found in the question. */
  coverage: number;
  matched: number;
  /** Question words this name explains. */
  explains: Set<string>;
}

/** Every item sharing at least one distinctive word with `text`, best first. */
function matchNames<T extends { name: string }>(text: string, items: T[]): NameMatch<T>[] {
  const asked = [...new Set(distinctiveWords(text))];
  const matches: NameMatch<T>[] = [];
  for (const item of items) {
    const words = [...new Set(distinctiveWords(item.name))];
    if (words.length === 0) continue;
    const explains = new Set<string>();
    let matched = 0;
    for (const word of words) {
      const hits = asked.filter((q) => similarWord(q, word));
      if (hits.length > 0) matched += 1;
      hits.forEach((hit) => explains.add(hit));
    }
    if (matched > 0) matches.push({ item, coverage: matched / words.length, matched, explains });
  }
  return matches.sort((a, b) => b.coverage - a.coverage || b.matched - a.matched);
}

type NamedPick<T> = { kind: 'one'; item: T } | { kind: 'several'; items: T[] } | { kind: 'none' };

/**
 * The item the text names: the one whose words are (nearly) all in it, or the only one explaining
 * every distinctive word of the question. Otherwise the candidates to choose from, or none.
 */
export function pickNamed<T extends { name: string }>(text: string, items: T[], maxChoices = 5): NamedPick<T> {
  const asked = new Set(distinctiveWords(text));
  const matches = matchNames(text, items);
  if (matches.length === 0) return { kind: 'none' };
  const strong = matches.filter((m) => m.coverage >= 0.75);
  if (strong.length > 0) {
    const best = strong[0];
    const rivals = strong.filter((m) => m !== best && m.coverage === best.coverage && m.matched === best.matched);
    if (rivals.length === 0) return { kind: 'one', item: best.item };
    return { kind: 'several', items: [best, ...rivals].slice(0, maxChoices).map((m) => m.item) };
  }
  const explainsAll = matches.filter((m) => [...asked].every((w) => m.explains.has(w)));
  if (matches.length === 1 && explainsAll.length === 1) return { kind: 'one', item: matches[0].item };
  return { kind: 'several', items: matches.slice(0, maxChoices).map((m) => m.item) };
}
