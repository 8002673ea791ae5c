/** The chart's drawing box, in SVG user units (the element is drawn at this size in CSS pixels). */
const WIDTH = 96;
const HEIGHT = 20;
const PAD = 2;

export interface ResponseChart {
  /** An SVG path: one segment per run of hours with data, so a gap shows as a gap. */
  d: string;
  label: string;
}

/**
 * A small line chart of hourly response times, drawn on the server (no script) and styled by attributes only
 * (the page's CSP has no inline style). Null when no hour has a figure.
 */
export function responseChart(hourly: (number | null)[] | null): ResponseChart | null {
  if (!hourly || hourly.length === 0) return null;
  const known = hourly.filter((v): v is number => v !== null);
  if (known.length === 0) return null;
  const max = Math.max(...known);
  const min = Math.min(...known);
  const step = hourly.length > 1 ? (WIDTH - 2 * PAD) / (hourly.length - 1) : 0;
  const y = (v: number) => (HEIGHT - PAD - (max === min ? (HEIGHT - 2 * PAD) / 2 : ((v - min) / (max - min)) * (HEIGHT - 2 * PAD))).toFixed(1);
  let d = '';
  let drawing = false;
  hourly.forEach((v, i) => {
    if (v === null) {
      drawing = false;
      return;
    }
    d += `${drawing ? 'L' : 'M'}${(PAD + i * step).toFixed(1)} ${y(v)}`;
    drawing = true;
  });
  // A lone point draws nothing as a path: a short flat stroke shows it.
  if (known.length === 1) d += 'h1';
  const avg = Math.round(known.reduce((a, b) => a + b, 0) / known.length);
  return { d, label: `Response time, last ${hourly.length} hours: ${avg} ms on average, ${min}–${max} ms` };
}
