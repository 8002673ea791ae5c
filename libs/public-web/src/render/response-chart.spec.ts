import { responseChart } from './response-chart';

describe('responseChart', () => {
  it('draws hours with figures as a path, leaves a gap for hours without, and says the figures in its label', () => {
    const chart = responseChart([100, 200, null, 300]);
    expect(chart).not.toBeNull();
    expect(chart!.d).toBe('M2.0 18.0L32.7 10.0M94.0 2.0');
    expect(chart!.label).toBe('Response time, last 4 hours: 200 ms on average, 100–300 ms');
  });

  it('draws flat figures mid-height and a lone figure as a short stroke; nothing without figures', () => {
    expect(responseChart([50, 50])!.d).toBe('M2.0 10.0L94.0 10.0');
    expect(responseChart([null, 80])!.d).toBe('M94.0 10.0h1');
    expect(responseChart([null, null])).toBeNull();
    expect(responseChart(null)).toBeNull();
  });
});
