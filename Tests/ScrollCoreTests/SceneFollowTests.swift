import Testing

@testable import ScrollCore

/// `Scene.follow(for:)`, which the `applied` echo carries for prediction (docs/PROTOCOL.md,
/// "applied"): how the layer of the widget a client holds follows its pointer.
struct SceneFollowTests {
    /// Two rulers, one above the other (widgets 0 and 1: layers 1 and 2), each 128 pt high.
    static func scene() -> Scene {
        Scene(
            size: Size(width: 390, height: 300),
            widgets: [
                WeightRuler(id: "upper", frame: Rect(x: 0, y: 0, width: 390, height: 128)),
                WeightRuler(id: "lower", frame: Rect(x: 0, y: 150, width: 390, height: 128)),
            ])
    }

    static func down(_ client: String, y: Double, id: Int) -> SceneInput {
        .pointer(
            PointerInput(
                phase: .down, key: PointerKey(client: client, pointer: id), position: Point(x: 200, y: y), clientTime: 0
            ))
    }

    @Test("a client holding both rulers is followed on the first in widget order, whichever it took first")
    func firstInWidgetOrder() throws {
        let scene = Self.scene()
        #expect(scene.follow(for: "a") == nil, "nothing held")
        scene.apply(Self.down("a", y: 214, id: 1), at: 0)
        #expect(scene.follow(for: "a")?.layer == 2, "the lower ruler alone")
        scene.apply(Self.down("a", y: 64, id: 2), at: 0.01)
        let follow = try #require(scene.follow(for: "a"))
        #expect(follow.layer == 1, "both held: the upper, widget 0")
        #expect(follow.follow.axis == .x && follow.follow.ratio == 1)
        #expect(scene.follow(for: "b") == nil, "another client holds nothing")
    }

    @Test("another client's hold is not followed for this one")
    func otherClients() {
        let scene = Self.scene()
        scene.apply(Self.down("b", y: 64, id: 1), at: 0)
        scene.apply(Self.down("a", y: 214, id: 1), at: 0.01)
        #expect(scene.follow(for: "a")?.layer == 2)
        #expect(scene.follow(for: "b")?.layer == 1)
    }
}
