/// Drawing: each item's tile at its slot, scaled by the seed's formula; leaving items rise and
/// fade, new ones grow, the rest slide. With reduced motion, inserts and deletes are cross-fades.
extension Carousel {
    public func render(into list: inout DisplayList, theme: Theme) {
        list.save()
        list.clip(frame)
        if theme.reducedMotion, let change = lastChange, now < change.time + Self.animationDuration {
            crossFade(from: change, into: &list, theme: theme)
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
        list.setFill(item.icon.tile)
        list.fillRoundRect(
            Rect(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side), radius: side * 0.22)
        item.icon.drawGlyph(into: &list, centre: centre, size: side)
        list.setFill(theme.secondaryText)
        list.text(
            item.name, x: centre.x, y: centre.y + side / 2 + 6, size: 12, align: .center, baseline: .top)
    }
}
