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

/// What the carousel's drawing plays, as of its latest add or delete (`Carousel.render`): kept
/// until the next one, so its drawing is the same at any time in between (the scene draws it
/// once) and its finished tweens hold their ends.
struct CarouselChange: Sendable {
    /// An ease running at the change: the page plays it from its start as a tween.
    struct Ease: Sendable {
        var ease: EaseSimulation
        var start: Double
    }

    var time: Double
    /// The row's offset before the change (reduced motion fades out the row as it was there).
    var offset: Double
    /// Where the row eases to (reduced motion fades in the row as it will be there); nil when it
    /// is not easing (a finger holds it, it glides): the row fading in then moves with the layer.
    var ends: Double?
    /// The items leaving then, rising and fading.
    var leaving: [LeavingItem]
    /// Each item's eases running then, by uid: its slide to its slot, its growth.
    var slides: [Int: Ease]
    var grows: [Int: Ease]
}
