/// How many tick events one `events` message carries per widget (docs/PROTOCOL.md, `events`).
/// One message of input can swing the picker across its whole range many times over at one
/// instant; sending every crossing would make one message ~12 KB and a short burst enough to
/// swamp every reader of the room. Past the budget, what the page needs is kept: every crossing
/// counted (a `haptic` with `count`) and the newest tick (the last `moved`).
public enum EventBudget {
    /// `moved` and `haptic` events, each, per widget per message: more than the page can play
    /// as distinct clicks in one message (20 pulses).
    public static let perWidget = 32

    /// `events` with, per widget, at most `perWidget` `moved` (the first ones and the last) and
    /// `perWidget` `haptic` (the first ones, then one standing for the rest), each with how
    /// many events it stands for (1 but for that haptic).
    public static func bounded(_ events: [SceneEvent], perWidget: Int = perWidget) -> [(SceneEvent, count: Int)] {
        var totals: [String: (moved: Int, haptic: Int)] = [:]
        for event in events {
            switch event.kind {
            case .moved: totals[event.widget, default: (0, 0)].moved += 1
            case .haptic: totals[event.widget, default: (0, 0)].haptic += 1
            default: break
            }
        }
        guard totals.values.contains(where: { $0.moved > perWidget || $0.haptic > perWidget }) else {
            return events.map { ($0, 1) }
        }
        var seen: [String: (moved: Int, haptic: Int)] = [:]
        var kept: [(SceneEvent, count: Int)] = []
        for event in events {
            let total = totals[event.widget] ?? (0, 0)
            switch event.kind {
            case .moved:
                seen[event.widget, default: (0, 0)].moved += 1
                let n = seen[event.widget]!.moved
                if total.moved <= perWidget || n < perWidget || n == total.moved { kept.append((event, 1)) }
            case .haptic:
                seen[event.widget, default: (0, 0)].haptic += 1
                let n = seen[event.widget]!.haptic
                if total.haptic <= perWidget || n < perWidget {
                    kept.append((event, 1))
                } else if n == total.haptic {
                    kept.append((event, total.haptic - perWidget + 1))
                }
            default:
                kept.append((event, 1))
            }
        }
        return kept
    }
}
