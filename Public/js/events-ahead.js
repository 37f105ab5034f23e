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

  /** `ahead` of an events message: runs, each of one widget and type, whose `t` is an array of
   *  times and whose other fields are arrays of one value per event or one value for all. Kept
   *  as events in time order (stable: one time's events keep theirs). */
  add(runs) {
    if (!Array.isArray(runs)) return;
    for (const run of runs) {
      if (!Array.isArray(run?.t)) continue;
      const fields = Object.entries(run).filter(([name]) => name !== "t");
      run.t.forEach((t, i) => {
        if (!Number.isFinite(t)) return;
        const event = { t };
        for (const [name, value] of fields) event[name] = Array.isArray(value) ? value[i] : value;
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
