/// Drawing: each item's tile at its slot, scaled by the seed's formula; leaving items rise and
/// fade, new ones grow, the rest slide. With reduced motion, inserts and deletes are cross-fades.
extension Carousel {
    public func render(into list: inout DisplayList, theme: Theme) {
        list.save()
        list.clip(frame)
        if theme.reducedMotion, let change = lastChange, now < change.time + Self.animationDuration {
            crossFade(from: change, into: &list, theme: theme)
        } else if slides {
            // Each item where its slot is, sized by where the layer's offset (−contentOffset)
            // shows it: the same ops for any offset, so a drag moves the layer and a glide is a track.
            list.scroll()
            for item in items { drawSliding(item, into: &list, theme: theme) }
        } else {
            let x = contentOffset
            for gone in leaving {
                let progress = min(max((now - gone.start) / Self.animationDuration, 0), 1)
                list.setAlpha(1 - progress)
                draw(gone.item, at: gone.slot, lift: progress * frame.height / 2, offset: x, into: &list, theme: theme)
            }
            list.setAlpha(1)
            for item in items {
                let slot = item.slot.value(at: now)
                let size = Self.scale(slot: slot, offset: x, cell: cell) * item.appear.value(at: now)
                draw(item, slot: slot, size: size, lift: 0, offset: x, into: &list, theme: theme)
            }
        }
        list.restore()
    }

    /// One item as `draw` draws it at any offset: its tile and glyph at the scale 1.2 centred,
    /// 0.6 two cells away, and its name below the tile (seed 004's scale, `scale(slot:offset:cell:)`,
    /// as lenses: linear in the distance d from the centre up to 3 cells, where a cell only partly
    /// on screen is at 0.3, then 0.6).
    private func drawSliding(_ item: CarouselItem, into list: inout DisplayList, theme: Theme) {
        let w = cell, side = w - 10
        let centre = Point(x: frame.minX + w * (item.slot.target + 2.5), y: frame.midY - 10)
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
    /// will be fades in; nothing rises, grows or slides. When the row is easing to centre an
    /// item, the new row is drawn where that ease ends.
    private func crossFade(from change: (offset: Double, time: Double), into list: inout DisplayList, theme: Theme) {
        let p = (now - change.time) / Self.animationDuration
        list.setAlpha(1 - p)
        for gone in leaving {
            draw(gone.item, at: gone.slot, lift: 0, offset: change.offset, into: &list, theme: theme)
        }
        for item in items where item.appear.running(at: now) == nil {
            let was = item.slot.running(at: now)?.from ?? item.slot.target
            draw(item, at: was, lift: 0, offset: change.offset, into: &list, theme: theme)
        }
        list.setAlpha(p)
        let ends = axis.phase == .snapping ? (axis.destination ?? contentOffset) : contentOffset
        for item in items { draw(item, at: item.slot.target, lift: 0, offset: ends, into: &list, theme: theme) }
        list.setAlpha(1)
    }

    /// At its slot's size (no growing).
    private func draw(
        _ item: CarouselItem, at slot: Double, lift: Double, offset x: Double, into list: inout DisplayList,
        theme: Theme
    ) {
        draw(
            item, slot: slot, size: Self.scale(slot: slot, offset: x, cell: cell), lift: lift, offset: x, into: &list,
            theme: theme)
    }

    /// One item's tile (the seed's (w − 10) square icon, scaled about the cell's centre) and name.
    private func draw(
        _ item: CarouselItem, slot: Double, size scale: Double, lift: Double, offset x: Double,
        into list: inout DisplayList, theme: Theme
    ) {
        guard scale > 0.01 else { return }
        let side = (cell - 10) * scale
        let centre = Point(
            x: frame.minX + cell * (slot + 2) - x + cell / 2, y: frame.midY - 10 - lift)
        guard centre.x + side / 2 >= frame.minX, centre.x - side / 2 <= frame.maxX else { return }
        tile(item, centre: centre, side: side, into: &list)
        name(item, x: centre.x, top: centre.y + side / 2 + 6, into: &list, theme: theme)
    }
}
