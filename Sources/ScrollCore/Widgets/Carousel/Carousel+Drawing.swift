/// Drawing: each item's tile at its slot, scaled by the seed's formula as lenses (so a glide is
/// one track); leaving items rise and fade, new ones grow, the rest slide, each a tween the page
/// plays (so an add or a delete is one frame). With reduced motion, inserts and deletes are
/// cross-fades.
extension Carousel {
    public func render(into list: inout DisplayList, theme: Theme) {
        list.save()
        list.clip(frame)
        if theme.reducedMotion, let change, crossFading {
            crossFade(change, into: &list, theme: theme)
        } else {
            // The same ops for any offset, so a drag moves the layer and a glide is a track; and
            // from one add or delete to the next, for any time, so it is drawn once.
            list.scroll()
            for gone in change?.leaving ?? [] {
                // It rises by half the row and fades, linearly, from the slot it left.
                list.tween(
                    Tween(
                        start: gone.start, duration: Self.animationDuration,
                        move: Tween.Move(from: .zero, to: Point(x: 0, y: -frame.height / 2)),
                        fade: Tween.Fade(from: 1, to: 0)))
                drawSliding(gone.item, slot: gone.slot, into: &list, theme: theme)
                list.restore()
            }
            for item in items { drawComing(item, into: &list, theme: theme) }
        }
        list.restore()
    }

    /// An item at its slot, moving there from its old one and growing in while it does (tweens
    /// of the eases running at the latest add or delete, each from its own start).
    private func drawComing(_ item: CarouselItem, into list: inout DisplayList, theme: Theme) {
        let slide = change?.slides[item.uid], grow = change?.grows[item.uid]
        if let slide {
            let e = slide.ease
            list.tween(
                Tween(
                    start: slide.start, duration: e.duration, curve: e.curve,
                    move: Tween.Move(from: Point(x: (e.start - e.finalPosition) * cell, y: 0), to: .zero)))
        }
        if let grow {
            let e = grow.ease
            list.tween(
                Tween(
                    start: grow.start, duration: e.duration, curve: e.curve,
                    scale: Tween.Scale(center: tileCentre(slot: item.slot.target), from: e.start, to: e.finalPosition)))
        }
        drawSliding(item, slot: item.slot.target, into: &list, theme: theme)
        if grow != nil { list.restore() }
        if slide != nil { list.restore() }
    }

    /// The centre of the tile of an item at `slot` (before the layer's offset).
    private func tileCentre(slot: Double) -> Point { Point(x: frame.minX + cell * (slot + 2.5), y: frame.midY - 10) }

    /// One item at `slot` as `draw` draws it at any offset: its tile and glyph at the scale 1.2
    /// centred, 0.6 two cells away, and its name below the tile (seed 004's scale,
    /// `scale(slot:offset:cell:)`, as lenses: linear in the distance d from the centre up to 3
    /// cells, where a cell only partly on screen is at 0.3, then 0.6).
    private func drawSliding(_ item: CarouselItem, slot: Double, into list: inout DisplayList, theme: Theme) {
        let w = cell, side = w - 10
        let centre = tileCentre(slot: slot)
        func lens(_ scale: (Double) -> Double, _ dy: (Double) -> Double) -> Lens {
            Lens(
                center: centre, focus: frame.minX + 2.5 * w,
                knots: [(0.0, 1.2), (3 * w, 0.3), (3 * w, 0.6)].map { d, s in
                    Lens.Knot(distance: d, scale: scale(s), dy: dy(s))
                })
        }
        list.lens(lens({ $0 }, { _ in 0 }))
        tile(item, centre: centre, side: side, into: &list)
        list.restore()
        // The name keeps its size: it only moves down by half the tile.
        list.lens(lens({ _ in 1 }, { side * $0 / 2 }))
        name(item, x: centre.x, top: centre.y + 6, into: &list, theme: theme)
        list.restore()
    }

    /// An item's tile: the seed's square icon, `side` wide, about `centre`, and its glyph.
    private func tile(_ item: CarouselItem, centre: Point, side: Double, into list: inout DisplayList) {
        list.setFill(item.icon.tile)
        list.fillRoundRect(
            Rect(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side), radius: side * 0.22)
        item.icon.drawGlyph(into: &list, centre: centre, size: side)
    }

    /// An item's name, centred on `x`, its top at `top`.
    private func name(_ item: CarouselItem, x: Double, top: Double, into list: inout DisplayList, theme: Theme) {
        list.setFill(theme.secondaryText)
        list.text(item.name, x: x, y: top, size: 12, align: .center, baseline: .top)
    }

    /// Reduced motion: the row as it was at the last add or delete fades out while the row as it
    /// will be fades in (two tweens); nothing rises, grows or slides. When the row is easing to
    /// centre an item, the new row is drawn where that ease ends; else (a finger holds it, it
    /// glides) it moves with the layer, as the user's own gesture moves it.
    private func crossFade(_ change: CarouselChange, into list: inout DisplayList, theme: Theme) {
        func fade(_ from: Double, _ to: Double) {
            list.tween(
                Tween(start: change.time, duration: Self.animationDuration, fade: Tween.Fade(from: from, to: to)))
        }
        fade(1, 0)
        for gone in change.leaving {
            draw(gone.item, at: gone.slot, offset: change.offset, into: &list, theme: theme)
        }
        for item in items where change.grows[item.uid] == nil {
            let was = change.slides[item.uid]?.ease.start ?? item.slot.target
            draw(item, at: was, offset: change.offset, into: &list, theme: theme)
        }
        list.restore()
        fade(0, 1)
        if let ends = change.ends {
            for item in items { draw(item, at: item.slot.target, offset: ends, into: &list, theme: theme) }
        } else {
            list.scroll()
            for item in items { drawSliding(item, slot: item.slot.target, into: &list, theme: theme) }
        }
        list.restore()
    }

    /// One item's tile (the seed's (w − 10) square icon, scaled by `scale(slot:offset:cell:)`
    /// about the cell's centre) and name, at content offset `x`.
    private func draw(
        _ item: CarouselItem, at slot: Double, offset x: Double, into list: inout DisplayList, theme: Theme
    ) {
        let scale = Self.scale(slot: slot, offset: x, cell: cell)
        let side = (cell - 10) * scale
        let centre = Point(x: frame.minX + cell * (slot + 2) - x + cell / 2, y: frame.midY - 10)
        guard centre.x + side / 2 >= frame.minX, centre.x - side / 2 <= frame.maxX else { return }
        tile(item, centre: centre, side: side, into: &list)
        name(item, x: centre.x, top: centre.y + side / 2 + 6, into: &list, theme: theme)
    }
}
