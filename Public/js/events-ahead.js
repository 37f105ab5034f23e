// Events sent ahead (docs/PROTOCOL.md, "Events ahead"): the events a glide will make, each with its
// room time, held until the room clock reaches it. What they mean is the client's EVENT_RULES'
// business; this only keeps them in time order and drops what the server withdraws.

export class EventsAhead {
  constructor() { this.list = []; }

  clear() { this.list = []; }

  /** `cancel` of an events message: `[{widget, after}]`, that widget's events later than `after` are void. */
  cancel(voids) {
    if (!Array.isArray(voids)) return;
    for (const v of voids) {
      if (typeof v?.widget !== "string" || !Number.isFinite(v?.after)) continue;
      this.list = this.list.filter((e) => !(e.widget === v.widget && e.t > v.after));
    }
  }

  /** `ahead` of an events message: runs, each of one widget and type, whose times are `t0` (s)
   *  and `dt` (the gaps after it, ms), or `times`: those of an earlier run (its index), and whose
   *  other fields are arrays of one value per event or one value for all; a `text` of `{fixed,
   *  prefix, suffix}` is each event's `value` so written; `steps` `{field: [from, by]}` gives
   *  event i's field as from + i·by.
   *  Kept as events in time order (stable: one time's events keep theirs). */
  add(runs) {
    if (!Array.isArray(runs)) return;
    const seen = []; // each run's times, for a later run at the same times (`times`: its index)
    for (const run of runs) {
      const times = Number.isInteger(run?.times) ? seen[run.times] ?? null : runTimes(run);
      seen.push(times);
      if (!times) continue;
      const fields = Object.entries(run).filter(([name]) => !["t0", "dt", "times", "steps"].includes(name));
      const steps = Object.entries(run.steps && typeof run.steps === "object" ? run.steps : {})
        .filter(([, s]) => Array.isArray(s) && s.length === 2 && s.every(Number.isFinite));
      const format = textFormat(run.text);
      times.forEach((t, i) => {
        const event = { t };
        for (const [name, value] of fields) event[name] = Array.isArray(value) ? value[i] : value;
        // A column steadily apart: its first and its step, in the server's float64 steps.
        for (const [name, [from, by]] of steps) event[name] = from + i * by;
        if (format) event.text = format(event.value);
        this.list.push(event);
      });
    }
    this.list.sort((a, b) => a.t - b.t);
  }

  /** The events due by room time `t` (s), taken out, in order. */
  due(t) {
    let n = 0;
    while (n < this.list.length && this.list[n].t <= t) n++;
    return n === 0 ? [] : this.list.splice(0, n);
  }

  /** The room time of the next one, or null when none waits. */
  get next() { return this.list.length ? this.list[0].t : null; }
}

/** A run's times, added up in whole microseconds as the server rounded them (so each lands on
 *  the time it stands for exactly), or null when they are not numbers. A gap may be
 *  `[gap, count]`: that gap count times over (at most MOST_GAPS in all). */
function runTimes(run) {
  if (!Number.isFinite(run?.t0) || !Array.isArray(run.dt)) return null;
  let micros = Math.round(run.t0 * 1e6);
  const times = [micros / 1e6];
  for (const gap of run.dt) {
    const [size, count] = Array.isArray(gap) ? gap : [gap, 1];
    if (!Number.isFinite(size) || !Number.isInteger(count) || count < 1 || times.length + count > MOST_GAPS) return null;
    for (let i = 0; i < count; i++) times.push((micros += Math.round(size * 1000)) / 1e6);
  }
  return times;
}

/** The most events one run may stand for (the server sends far fewer ahead). */
const MOST_GAPS = 100000;

/** A run's `text` format as a function of an event's value, or null when it is not one. */
function textFormat(text) {
  const fixed = text?.fixed;
  if (!Number.isInteger(fixed) || fixed < 0 || fixed > 100) return null;
  const prefix = typeof text.prefix === "string" ? text.prefix : "";
  const suffix = typeof text.suffix === "string" ? text.suffix : "";
  return (value) => (Number.isFinite(value) ? prefix + value.toFixed(fixed) + suffix : undefined);
}
