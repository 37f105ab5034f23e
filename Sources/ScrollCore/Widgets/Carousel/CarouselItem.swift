/// One item of the carousel: what it shows, and where it is while items come and go.
struct CarouselItem: Sendable {
    /// Stable across inserts and deletes (semantics ids, the `selected` event's identity).
    let uid: Int
    let name: String
    let icon: CarouselIcon
    /// Its place in the row (the index at rest), animated when a neighbour comes or goes.
    var slot: AnimatedValue
    /// 0 → 1 while it appears (a size factor).
    var appear: AnimatedValue

    init(uid: Int, name: String, icon: CarouselIcon, slot: Int) {
        self.uid = uid
        self.name = name
        self.icon = icon
        self.slot = AnimatedValue(Double(slot))
        appear = AnimatedValue(1)
    }

    /// When its last animation ends (−∞ when none ran).
    var animationEnd: Double { max(slot.endTime, appear.endTime) }
}

/// An item on its way out: it rises and fades from where it was when deleted.
struct LeavingItem: Sendable {
    let item: CarouselItem
    let slot: Double
    let start: Double
}
