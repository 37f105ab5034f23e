import Testing

@testable import ScrollCore

@Suite struct PhysicsRubberBandTests {
    @Test func matchesReferenceNumbers() {
        // b(x) = (1 − 1/(x·0.55/960 + 1))·960
        #expect(abs(RubberBand.offset(forOvershoot: 100, dimension: 960) - 52.02) < 0.01)
        #expect(abs(RubberBand.offset(forOvershoot: 400, dimension: 960) - 178.98) < 0.01)
        #expect(RubberBand.offset(forOvershoot: 0, dimension: 960) == 0)
    }

    @Test func neverReachesTheDimension() {
        #expect(RubberBand.offset(forOvershoot: 1e9, dimension: 960) < 960)
        // Slope c = 0.55 at the edge.
        #expect(abs(RubberBand.offset(forOvershoot: 0.001, dimension: 960) / 0.001 - 0.55) < 1e-5)
    }

    @Test(arguments: [0.0, 1.0, 52.02, 178.98, 500.0, 900.0])
    func inverseRoundTrips(shown: Double) {
        let overshoot = RubberBand.overshoot(forOffset: shown, dimension: 960)
        #expect(abs(RubberBand.offset(forOvershoot: overshoot, dimension: 960) - shown) < 1e-9)
    }

    @Test func inverseOfReferenceNumbers() {
        #expect(abs(RubberBand.overshoot(forOffset: 52.0197, dimension: 960) - 100) < 0.001)
        #expect(abs(RubberBand.overshoot(forOffset: 178.9831, dimension: 960) - 400) < 0.001)
    }
}
