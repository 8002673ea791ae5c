import { initialTimer, pingState, TimerState } from './heartbeat-timer';
import { CronSchedule, coveredOccurrence, nextDue, nextOccurrences, parseSchedule, scheduleTiming } from './schedule';

const at = (iso: string) => new Date(iso);
const isoList = (dates: Date[]) => dates.map((d) => d.toISOString());

function schedule(expression: string, timezone = 'UTC'): CronSchedule {
  const parsed = parseSchedule(expression, timezone);
  if (!parsed.schedule) throw new Error(JSON.stringify(parsed.details));
  return parsed.schedule;
}

describe('parseSchedule', () => {
  it('accepts 5-field expressions and the nicknames, with UTC as the default zone', () => {
    expect(parseSchedule('*/15 * * * *', undefined)).toEqual({ schedule: { expression: '*/15 * * * *', timezone: 'UTC' }, details: [] });
    expect(parseSchedule('  0   9 * * 1-5 ', 'Europe/Berlin').schedule).toEqual({ expression: '0 9 * * 1-5', timezone: 'Europe/Berlin' });
    for (const nickname of ['@hourly', '@daily', '@weekly', '@monthly', '@yearly']) {
      expect(parseSchedule(nickname, null).schedule).toEqual({ expression: nickname, timezone: 'UTC' });
    }
    expect(parseSchedule('@DAILY', 'utc').schedule).toEqual({ expression: '@daily', timezone: 'UTC' });
  });

  it('stores the zone as Intl spells it', () => {
    expect(parseSchedule('@daily', 'europe/berlin').schedule?.timezone).toBe('Europe/Berlin');
  });

  it.each([
    ['61 * * * *', /minute/],
    ['* * * * * *', /5 fields/],
    ['* * * *', /5 fields/],
    ['', /empty/],
    ['@reboot', /nickname/],
    ['@midnight', /nickname/],
    ['0 0 30 2 *', /never fires/],
    ['banana', /5 fields/],
    ['x'.repeat(201), /at most 200/],
  ])('rejects the expression %j naming heartbeat.schedule', (expression, message) => {
    const parsed = parseSchedule(expression, 'UTC');
    expect(parsed.schedule).toBeNull();
    expect(parsed.details).toEqual([{ path: 'heartbeat.schedule', message: expect.stringMatching(message) }]);
  });

  it('rejects a non-string expression', () => {
    expect(parseSchedule(5, 'UTC').details).toEqual([{ path: 'heartbeat.schedule', message: 'schedule must be a string' }]);
  });

  it.each(['Mars/Olympus', '+02:00', '', 'Europe/Berlin/x', 7])('rejects the zone %j naming heartbeat.timezone', (zone) => {
    const parsed = parseSchedule('@daily', zone);
    expect(parsed.schedule).toBeNull();
    expect(parsed.details).toEqual([{ path: 'heartbeat.timezone', message: expect.stringMatching(/IANA/) }]);
  });

  it('lists both violations when both fields are bad, under the given prefix', () => {
    expect(parseSchedule('nope', 'Nowhere/Here', 'body').details.map((d) => d.path)).toEqual(['body.timezone', 'body.schedule']);
  });
});

describe('nextDue', () => {
  it('@daily in UTC is the next midnight, strictly after', () => {
    expect(nextDue(schedule('@daily'), at('2026-03-07T12:00:00Z'))?.toISOString()).toBe('2026-03-08T00:00:00.000Z');
    expect(nextDue(schedule('@daily'), at('2026-03-08T00:00:00.000Z'))?.toISOString()).toBe('2026-03-09T00:00:00.000Z');
    expect(nextDue(schedule('@daily'), at('2026-03-07T23:59:59.999Z'))?.toISOString()).toBe('2026-03-08T00:00:00.000Z');
  });

  it('*/15 every quarter hour', () => {
    expect(isoList(nextOccurrences(schedule('*/15 * * * *'), at('2026-11-25T10:07:12Z'), 3))).toEqual([
      '2026-11-25T10:15:00.000Z',
      '2026-11-25T10:30:00.000Z',
      '2026-11-25T10:45:00.000Z',
    ]);
  });

  it('0 9 * * 1-5 skips the weekend', () => {
    // 2026-11-27 is a Friday.
    expect(isoList(nextOccurrences(schedule('0 9 * * 1-5', 'Europe/Berlin'), at('2026-11-27T09:00:00Z'), 2))).toEqual([
      '2026-11-30T08:00:00.000Z',
      '2026-12-01T08:00:00.000Z',
    ]);
  });

  describe('Europe/Berlin (CET +1, CEST +2; 2026-03-29 02:00 → 03:00, 2026-10-25 03:00 → 02:00)', () => {
    it('a 02:30 job on the spring-forward day is expected once, at 03:00', () => {
      expect(isoList(nextOccurrences(schedule('30 2 * * *', 'Europe/Berlin'), at('2026-03-28T12:00:00Z'), 3))).toEqual([
        '2026-03-29T01:00:00.000Z',
        '2026-03-30T00:30:00.000Z',
        '2026-03-31T00:30:00.000Z',
      ]);
    });

    it('a 02:30 job on the repeated autumn hour fires once', () => {
      expect(isoList(nextOccurrences(schedule('30 2 * * *', 'Europe/Berlin'), at('2026-10-24T12:00:00Z'), 2))).toEqual([
        '2026-10-25T00:30:00.000Z',
        '2026-10-26T01:30:00.000Z',
      ]);
    });

    it('@daily keeps local midnight across the change (23 h and 25 h days)', () => {
      expect(isoList(nextOccurrences(schedule('@daily', 'Europe/Berlin'), at('2026-03-28T12:00:00Z'), 2))).toEqual([
        '2026-03-28T23:00:00.000Z',
        '2026-03-29T22:00:00.000Z',
      ]);
      expect(isoList(nextOccurrences(schedule('@daily', 'Europe/Berlin'), at('2026-10-24T12:00:00Z'), 2))).toEqual([
        '2026-10-24T22:00:00.000Z',
        '2026-10-25T23:00:00.000Z',
      ]);
    });

    it('*/15 skips the missing hour and runs through both copies of the repeated one', () => {
      expect(isoList(nextOccurrences(schedule('*/15 * * * *', 'Europe/Berlin'), at('2026-03-29T00:40:00Z'), 3))).toEqual([
        '2026-03-29T00:45:00.000Z', // 01:45 CET
        '2026-03-29T01:00:00.000Z', // 03:00 CEST
        '2026-03-29T01:15:00.000Z',
      ]);
      // 02:00–02:59 happens twice: 00:00–00:59Z (CEST) and 01:00–01:59Z (CET), real time never stops.
      const autumn = nextOccurrences(schedule('*/15 * * * *', 'Europe/Berlin'), at('2026-10-24T23:50:00Z'), 9);
      expect(isoList(autumn)).toEqual([
        '2026-10-25T00:00:00.000Z',
        '2026-10-25T00:15:00.000Z',
        '2026-10-25T00:30:00.000Z',
        '2026-10-25T00:45:00.000Z',
        '2026-10-25T01:00:00.000Z',
        '2026-10-25T01:15:00.000Z',
        '2026-10-25T01:30:00.000Z',
        '2026-10-25T01:45:00.000Z',
        '2026-10-25T02:00:00.000Z',
      ]);
    });

    it('0 9 * * 1-5 moves by one real hour over the change', () => {
      // 2026-03-27 is a Friday: 09:00 CET, then Monday 09:00 CEST.
      expect(isoList(nextOccurrences(schedule('0 9 * * 1-5', 'Europe/Berlin'), at('2026-03-27T00:00:00Z'), 2))).toEqual([
        '2026-03-27T08:00:00.000Z',
        '2026-03-30T07:00:00.000Z',
      ]);
    });
  });

  describe('America/New_York (EST −5, EDT −4; 2026-03-08 02:00 → 03:00, 2026-11-01 02:00 → 01:00)', () => {
    it('a 02:30 job on the spring-forward day is expected once, at 03:00', () => {
      expect(isoList(nextOccurrences(schedule('30 2 * * *', 'America/New_York'), at('2026-03-07T12:00:00Z'), 3))).toEqual([
        '2026-03-08T07:00:00.000Z',
        '2026-03-09T06:30:00.000Z',
        '2026-03-10T06:30:00.000Z',
      ]);
    });

    it('a 01:30 job on the repeated autumn hour fires once', () => {
      expect(isoList(nextOccurrences(schedule('30 1 * * *', 'America/New_York'), at('2026-10-31T12:00:00Z'), 2))).toEqual([
        '2026-11-01T05:30:00.000Z',
        '2026-11-02T06:30:00.000Z',
      ]);
    });

    it('@daily keeps local midnight', () => {
      expect(isoList(nextOccurrences(schedule('@daily', 'America/New_York'), at('2026-03-07T12:00:00Z'), 3))).toEqual([
        '2026-03-08T05:00:00.000Z',
        '2026-03-09T04:00:00.000Z',
        '2026-03-10T04:00:00.000Z',
      ]);
    });
  });

  describe('Australia/Lord_Howe (+10:30 standard, +11 summer: a 30-minute shift; 2026-04-05 02:00 → 01:30, 2026-10-04 02:00 → 02:30)', () => {
    it('a 02:00 job on the spring-forward day is expected once, at 02:30', () => {
      expect(isoList(nextOccurrences(schedule('0 2 * * *', 'Australia/Lord_Howe'), at('2026-10-03T00:00:00Z'), 3))).toEqual([
        '2026-10-03T15:30:00.000Z', // 02:30 +11
        '2026-10-04T15:00:00.000Z',
        '2026-10-05T15:00:00.000Z',
      ]);
    });

    it('a 01:45 job on the repeated half hour fires once', () => {
      expect(isoList(nextOccurrences(schedule('45 1 * * *', 'Australia/Lord_Howe'), at('2026-04-04T12:00:00Z'), 2))).toEqual([
        '2026-04-04T14:45:00.000Z', // 01:45 +11
        '2026-04-05T15:15:00.000Z', // 01:45 +10:30 the next day
      ]);
    });

    it('*/15 runs through both copies of the repeated half hour', () => {
      expect(isoList(nextOccurrences(schedule('*/15 * * * *', 'Australia/Lord_Howe'), at('2026-04-04T14:20:00Z'), 6))).toEqual([
        '2026-04-04T14:30:00.000Z', // 01:30 +11
        '2026-04-04T14:45:00.000Z', // 01:45 +11
        '2026-04-04T15:00:00.000Z', // 01:30 +10:30
        '2026-04-04T15:15:00.000Z', // 01:45 +10:30
        '2026-04-04T15:30:00.000Z', // 02:00 +10:30
        '2026-04-04T15:45:00.000Z',
      ]);
    });
  });
});

describe('scheduleTiming', () => {
  const daily9 = schedule('0 9 * * *', 'Europe/Berlin');
  const hour = 3_600_000;

  it('before any ping: the first occurrence after creation, deadline = expectedAt + grace, tolerance 1 min', () => {
    expect(scheduleTiming(daily9, hour, at('2026-11-25T12:00:00Z'), false)).toEqual({
      expectedAt: at('2026-11-26T08:00:00Z'),
      deadline: at('2026-11-26T09:00:00Z'),
      toleranceMs: 60_000,
    });
  });

  it('after a ping on time, a little early or a little late: the occurrence after the one it stands for', () => {
    for (const ping of ['2026-11-26T08:00:00Z', '2026-11-26T07:59:20Z', '2026-11-26T08:00:45Z']) {
      expect(scheduleTiming(daily9, hour, at(ping), true)?.expectedAt).toEqual(at('2026-11-27T08:00:00Z'));
    }
  });

  it('after a ping near no occurrence: the first occurrence after it', () => {
    expect(scheduleTiming(daily9, hour, at('2026-11-26T06:00:00Z'), true)?.expectedAt).toEqual(at('2026-11-26T08:00:00Z'));
    expect(scheduleTiming(daily9, hour, at('2026-11-26T08:30:00Z'), true)?.expectedAt).toEqual(at('2026-11-27T08:00:00Z'));
  });

  it('an every-minute job pinging a few seconds late is expected at the next minute, not the one after', () => {
    const everyMinute = schedule('* * * * *');
    expect(scheduleTiming(everyMinute, 0, at('2026-11-26T08:00:05Z'), true)?.expectedAt).toEqual(at('2026-11-26T08:01:00Z'));
    expect(scheduleTiming(everyMinute, 0, at('2026-11-26T07:59:55Z'), true)?.expectedAt).toEqual(at('2026-11-26T08:01:00Z'));
  });

  it('a ping between two close occurrences stands for the nearest; the other is expected next', () => {
    const twice = schedule('0,1 8 * * *');
    expect(scheduleTiming(twice, 0, at('2026-11-26T08:00:10Z'), true)?.expectedAt).toEqual(at('2026-11-26T08:01:00Z'));
    expect(scheduleTiming(twice, 0, at('2026-11-26T08:00:50Z'), true)?.expectedAt).toEqual(at('2026-11-27T08:00:00Z'));
  });

  it('after a restart at a deadline (a FAILING): the first occurrence after it', () => {
    expect(scheduleTiming(daily9, hour, at('2026-11-26T09:00:00Z'), false)?.deadline).toEqual(at('2026-11-27T09:00:00Z'));
  });

  it('the spring-forward 02:30 job is expected at 03:00 local', () => {
    const timing = scheduleTiming(schedule('30 2 * * *', 'Europe/Berlin'), 0, at('2026-03-28T01:30:10Z'), true);
    expect(timing?.expectedAt).toEqual(at('2026-03-29T01:00:00Z'));
  });

  it('coveredOccurrence picks the nearest occurrence within a minute', () => {
    expect(coveredOccurrence(schedule('* * * * *'), at('2026-11-26T08:00:40Z'))).toEqual(at('2026-11-26T08:01:00Z'));
    expect(coveredOccurrence(daily9, at('2026-11-26T08:02:00Z'))).toBeNull();
  });
});

describe('a ping against a schedule (pingState)', () => {
  const expected = Date.parse('2026-11-26T08:00:00Z');
  const timer: TimerState = { ...initialTimer(), activated: true, everPinged: true, schedule: '0 9 * * *', timezone: 'Europe/Berlin', nextDueAt: expected, graceMs: 3_600_000 };
  it.each([
    ['2026-11-26T07:58:59Z', 'EARLY'],
    ['2026-11-26T07:59:00Z', 'RECEIVED'],
    ['2026-11-26T08:01:00Z', 'RECEIVED'],
    ['2026-11-26T08:01:01Z', 'GRACE'],
    ['2026-11-26T09:00:00Z', 'GRACE'],
    ['2026-11-26T09:00:01Z', 'LATE'],
  ])('a ping at %s is %s', (time, state) => {
    expect(pingState(timer, Date.parse(time))).toBe(state);
  });
});
