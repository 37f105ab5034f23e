/// How many events of one type one `events` message carries per widget (docs/PROTOCOL.md,
/// `events`). One message of input can swing the picker across its whole range many times over
/// at one instant, and a late tick catches up on every report a glide made meanwhile; sending
/// every one would make one message ~12 KB and a short burst enough to swamp every reader of the
/// room. Past the budget, what the page needs is kept: every crossing counted (a `haptic` with
/// `count`) and the newest of each type (the last tick, the value it came to rest on).
public enum EventBudget {
    /// Events of each type, per widget per message: more than the page can play as distinct
    /// clicks in one message (20 pulses).
    public static let perWidget = 32

    /// `events` with, per widget and type, at most `perWidget`: past that the first ones and the
    /// newest, or for `haptic` the first ones then one standing for the rest, each with how many
    /// events it stands for (1 but for that haptic).
    public static func bounded(_ events: [SceneEvent], perWidget: Int = perWidget) -> [(SceneEvent, count: Int)] {
        var totals: [Budgeted: Int] = [:]
        for event in events { totals[Budgeted(event), default: 0] += 1 }
        guard totals.values.contains(where: { $0 > perWidget }) else { return events.map { ($0, 1) } }
        var seen: [Budgeted: Int] = [:]
        var kept: [(SceneEvent, count: Int)] = []
        for event in events {
            let key = Budgeted(event)
            let total = totals[key] ?? 0
            seen[key, default: 0] += 1
            let n = seen[key] ?? 0
            if total <= perWidget || n < perWidget {
                kept.append((event, 1))
            } else if n == total {
                kept.append((event, key.type == .haptic ? total - perWidget + 1 : 1))
            }
        }
        return kept
    }

    /// What the budget counts by.
    private struct Budgeted: Hashable {
        let widget: String
        let type: SceneEvent.Kind.Name
        init(_ event: SceneEvent) {
            widget = event.widget
            type = event.kind.name
        }
    }
}
