import Testing

@testable import ScrollCore
@testable import ScrollServer

/// The room's presence layer (docs/PROTOCOL.md, "Sharing a room") is drawn again only when a
/// pointer takes or lets go of a widget, or a dot moves; a frame otherwise reuses its drawing.
@Suite struct RoomPresenceLayerTests {
    let room = Room(name: "r", scene: DemoScene.make(), origin: 0, headroom: 16)
    var layerID: UInt16 { UInt16(room.scene.widgets.count + 1) }

    /// The presence layer's ops in the room's latest full frame.
    func shown() throws -> [UInt8] {
        let frame = try DecodedFrame(room.frame(theme: .light).full.byteArray)
        return try #require(frame.layers.first { $0.id == layerID }?.ops)
    }

    /// What the layer shows, drawn afresh from the room's presence and holders.
    func fresh() -> [UInt8] {
        var list = DisplayList()
        room.presence.render(
            holders: room.scene.holders.map { (room.scene.widgets[$0.widget].frame, $0.client) }, into: &list)
        return list.bytes
    }

    func pointer(_ phase: PointerPhase, x: Double, client: String = "c1", at now: Double) {
        let key = PointerKey(client: client, pointer: 1)
        _ = room.apply(
            [.pointer(PointerInput(phase: phase, key: key, position: Point(x: x, y: 214), clientTime: now))], now: now)
    }

    @Test(
        "alone, a client's dot is followed but drawn for nobody; once another joins it shows, and goes when they leave")
    func loneDot() throws {
        room.join("c1")
        room.track(.hover(at: Point(x: 40, y: 500), t: 0.1), from: "c1")
        _ = room.advance(now: 0.1)
        #expect(try shown() == [])
        room.join("c2")
        let dot = try shown()
        #expect(dot.count > 0 && dot == fresh())
        _ = room.leave("c2", now: 0.2)
        #expect(try shown() == [])
    }

    @Test(
        "an outline when a widget is taken, kept while it is dragged, gone when it is let go; a hover dot drawn where it moved"
    )
    func redrawnWhenItChanges() throws {
        room.join("c1")
        room.join("c2")
        #expect(try shown() == [])

        pointer(.down, x: 300, at: 0.1)
        let held = try shown()
        // Two members: the holder's outline, four bars round the ruler.
        #expect(held.count > 0 && held == fresh())
        pointer(.move, x: 250, at: 0.2)
        #expect(try shown() == held)
        let delta = try DecodedFrame(room.frame(theme: .light).delta.byteArray)
        #expect(delta.layers.first { $0.id == layerID } == DecodedFrame.Layer(id: layerID, ops: nil, offset: nil))

        pointer(.up, x: 250, at: 0.3)
        #expect(try shown() == [])

        room.track(.hover(at: Point(x: 40, y: 500), t: 0.4), from: "c2")
        _ = room.advance(now: 0.4)
        let dot = try shown()
        #expect(dot.count > 0 && dot == fresh())
        room.track(.hover(at: Point(x: 60, y: 500), t: 0.5), from: "c2")
        _ = room.advance(now: 0.5)
        #expect(try shown() != dot)
        #expect(try shown() == fresh())
    }
}
