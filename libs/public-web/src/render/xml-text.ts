/** Code points XML 1.0 cannot carry at all: C0 controls but tab, LF and CR; U+FFFE, U+FFFF; and (in `u` mode) lone surrogates. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Cs}/gu;

/** The text with every character XML cannot hold replaced by U+FFFD, so a feed or badge is well-formed whatever a name holds. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}

/** At most `max` code points (never half a surrogate pair), with an ellipsis when cut. */
export function shortened(text: string, max: number): string {
  const points = Array.from(text);
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : text;
}
