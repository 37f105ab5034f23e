/// Drawing: each item's tile at its slot, scaled by the seed's formula; leaving items rise and fade.
extension Carousel {
    public func render(into list: inout DisplayList, theme: Theme) {
        let x = contentOffset
        list.save()
        list.clip(frame)
        for gone in leaving {
            let progress = min(max((now - gone.start) / Self.animationDuration, 0), 1)
            list.setAlpha(1 - progress)
            draw(
                gone.item, slot: gone.slot, size: Self.scale(slot: gone.slot, offset: x, cell: cell),
                lift: progress * frame.height / 2, offset: x, into: &list, theme: theme)
        }
        list.setAlpha(1)
        for item in items {
            let slot = item.slot.value(at: now)
            let size = Self.scale(slot: slot, offset: x, cell: cell) * item.appear.value(at: now)
            draw(item, slot: slot, size: size, lift: 0, offset: x, into: &list, theme: theme)
        }
        list.restore()
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
