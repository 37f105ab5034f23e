import Foundation
import Testing

@testable import ScrollCore

/// The shared table of tracks and the offsets they give (Tracks/track-cases.json, worked out by
/// hand; BrowserTrackTests reads it too, for Public/js/track.js).
struct TrackCase {
    let name: String
    let track: Track
    let at: [(time: Double, x: Double, y: Double)]

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Tracks/track-cases.json")

    struct BadTable: Error { let what: String }

    static func load() throws -> (tolerance: Double, cases: [TrackCase]) {
        func need<T>(_ value: Any?, _ what: String) throws -> T {
            guard let v = value as? T else { throw BadTable(what: what) }
            return v
        }
        let root: [String: Any] = try need(try JSONSerialization.jsonObject(with: Data(contentsOf: file)), "root")
        let tolerance: Double = try need(root["tolerance"], "tolerance")
        let rows: [[String: Any]] = try need(root["cases"], "cases")
        let cases = try rows.map { c -> TrackCase in
            let wide = c["wide"] as? Bool ?? false
            let curves = try (c["curves"] as? [[Double]]).map { rows in
                try rows.map { r in
                    guard r.count == 4 else { throw BadTable(what: "curve") }
                    return CubicBezierEasing(r[0], r[1], r[2], r[3])
                }
            }
            // Eased: [t, x, y, curve]; else [t, x, y, vx, vy].
            let knots = try (need(c["knots"], "knots") as [[Double]]).map { k in
                guard k.count == (curves == nil ? 5 : 4) else { throw BadTable(what: "knot") }
                return curves == nil
                    ? Track.Knot(t: k[0], x: k[1], y: k[2], vx: k[3], vy: k[4], wide: wide)
                    : Track.Knot(t: k[0], x: k[1], y: k[2], curve: UInt8(k[3]), wide: wide)
            }
            let axesNumber: Int = try need(c["axes"], "axes")
            let axes: Track.Axes = try need(Track.Axes(rawValue: UInt8(axesNumber)), "axes")
            let wrap = try (c["wrap"] as? [Double]).map { w in
                guard w.count == 2 else { throw BadTable(what: "wrap") }
                return Track.Wrap(upper: w[0], period: w[1])
            }
            let track = Track(
                start: try need(c["start"], "start"), axes: axes, knots: knots, wrap: wrap, wide: wide, curves: curves)
            let at = try (need(c["at"], "at") as [[Double]]).map { ($0[0], $0[1], $0[2]) }
            return TrackCase(name: try need(c["name"], "name"), track: track, at: at)
        }
        return (tolerance, cases)
    }
}

struct TrackTests {
    @Test("Track.swift gives every offset of the shared table within its tolerance")
    func sharedTable() throws {
        let (tolerance, cases) = try TrackCase.load()
        #expect(cases.count >= 8)
        for c in cases {
            for row in c.at {
                let p = c.track.offset(at: row.time)
                #expect(
                    abs(p.x - row.x) <= tolerance && abs(p.y - row.y) <= tolerance, "\(c.name) at \(row.time): \(p)")
            }
        }
    }

    @Test("a track goes through the frame and back unchanged: start in float64, knots in float32 (float64 when wide)")
    func wireRoundTrip() throws {
        let (_, cases) = try TrackCase.load()
        var encoder = FrameEncoder()
        var list = DisplayList()
        list.fillRect(Rect(x: 0, y: 0, width: 1, height: 1))
        let layers = cases.enumerated().map { i, c in Layer(id: UInt16(i), list: list, track: c.track) }
        let frame = encoder.encode(layers, time: 2)
        for bytes in [frame.delta, frame.full] {
            let decoded = try DecodedFrame(bytes)
            #expect(decoded.layers.map(\.track) == cases.map(\.track))
            #expect(decoded.layers.allSatisfy { $0.ops == list.bytes })
        }
        // One axis: 4 + 8 bytes a knot; both: 4 + 16; plus start, axes and count.
        var one = [UInt8]()
        FrameEncoder.appendTrack(&one, cases[0].track)
        #expect(one.count == 11 + 2 * 12)
        var both = [UInt8]()
        FrameEncoder.appendTrack(&both, cases[4].track)
        #expect(both.count == 11 + 2 * 20)
        // A wrap: the axes byte says so, and its upper end and period follow the count.
        let wrapping = try #require(cases.first { $0.track.wrap != nil && $0.track.axes == .y && !$0.track.wide }).track
        var wrapped = [UInt8]()
        FrameEncoder.appendTrack(&wrapped, wrapping)
        #expect(wrapped.count == 11 + 8 + 2 * 12 && wrapped[8] == Track.Axes.y.rawValue | FrameFormat.trackWraps)
        // Wide: every number of a knot in float64.
        let far = try #require(cases.first { $0.track.wide }).track
        var wide = [UInt8]()
        FrameEncoder.appendTrack(&wide, far)
        #expect(wide.count == 11 + 8 + 2 * 24 && wide[8] == 2 | FrameFormat.trackWraps | FrameFormat.trackWide)
        #expect(far.knots[1].y == -4_000_000_100 && Track.Knot(t: 0, x: 0, y: -4_000_000_100, vx: 0).y == -4e9)
        // Eased: its curves after the wrap (a count, then a byte each that CSS names, ease-in 2 and
        // ease-out 3); a knot is t, a position per axis and its curve's byte, no velocities.
        let roll = try #require(cases.first { $0.name.hasPrefix("eased and wrapping") }).track
        var eased = [UInt8]()
        FrameEncoder.appendTrack(&eased, roll)
        #expect(eased.count == 11 + 8 + 1 + 2 + 5 * 9)
        #expect(eased[8] == 2 | FrameFormat.trackWraps | FrameFormat.trackEased && eased[19...21] == [2, 2, 3])
        // A curve CSS does not name: 0, then its four numbers.
        let custom = try #require(cases.first { $0.name.hasPrefix("eased along a custom curve") }).track
        var own = [UInt8]()
        FrameEncoder.appendTrack(&own, custom)
        #expect(own.count == 11 + 1 + 1 + 16 + 2 * 9 && own[11...12] == [1, 0])
    }

    @Test("an eased track's curves go as float32: the page and the server ease along the same curve")
    func easedCurvesInFloat32() {
        let track = Track(
            start: 0, axes: .x, knots: [.init(t: 0, x: 0), .init(t: 1, x: 100, curve: 1)], curves: [.easeIn])
        #expect(track.curves?[0].x1 == Double(Float(0.42)) && track.curves?[0].x1 != 0.42)
        // Halfway in time, an ease-in has gone 31.5357 % of the way (worked out in Python).
        #expect(abs(track.offset(at: 0.5).x - 31.5357) < 1e-3)
    }

    @Test("a wrapping track rests where its last knot is shown: a layer at rest there is kept")
    func wrappedRest() throws {
        var encoder = FrameEncoder()
        var list = DisplayList()
        list.scroll()
        list.fillRect(Rect(x: 0, y: 0, width: 1, height: 1))
        // Down 2,160 pt (five turns of 400 and 160 more), shown within (−400, 0]: it rests at −160.
        let track = Track(
            start: 1, axes: .y,
            knots: [.init(t: 0, x: 0, y: 0, vx: 0, vy: -2160), .init(t: 1, x: 0, y: -2160, vx: 0, vy: -2160)],
            wrap: Track.Wrap(upper: 0, period: 400))
        #expect(track.rest == Point(x: 0, y: -160) && track.offset(at: 2.5) == Point(x: 0, y: -160))
        #expect(abs(track.offset(at: 1 + 100.0 / 2160).y + 100) < 1e-9)
        #expect(abs(track.offset(at: 1 + 500.0 / 2160).y + 100) < 1e-9)
        #expect(abs(track.offset(at: 1 + 1999.0 / 2160).y + 399) < 1e-9)
        _ = encoder.encode([Layer(id: 1, list: list, track: track)], time: 1)
        #expect(encoder.encode([Layer(id: 1, list: list, offset: Point(x: 0, y: -160))], time: 2.5).changedLayers == 0)
        // Where the line ends unwrapped is another place: a move.
        var other = FrameEncoder()
        _ = other.encode([Layer(id: 1, list: list, track: track)], time: 1)
        #expect(other.encode([Layer(id: 1, list: list, offset: Point(x: 0, y: -2160))], time: 2.5).changedLayers == 1)
        // Five whole turns rest on the wrap's upper end, +0; a column at rest on its top 0 is at −0:
        // one place, kept.
        let turns = Track(
            start: 1, axes: .y,
            knots: [.init(t: 0, x: 0, y: 0, vx: 0, vy: -2000), .init(t: 1, x: 0, y: -2000, vx: 0, vy: -2000)],
            wrap: Track.Wrap(upper: 0, period: 400))
        #expect(turns.rest.y == 0 && turns.rest.y.sign == .plus)
        var top = FrameEncoder()
        _ = top.encode([Layer(id: 1, list: list, track: turns)], time: 1)
        #expect(top.encode([Layer(id: 1, list: list, offset: Point(x: 0, y: -0.0))], time: 2.5).changedLayers == 0)
    }

    @Test(
        "the same track on the next frame is kept (3 bytes); a new one goes as kind 3; at rest where it ends a keep, elsewhere a move"
    )
    func encoderKeepsATrack() throws {
        var encoder = FrameEncoder()
        var list = DisplayList()
        list.scroll()
        list.fillRect(Rect(x: 0, y: 0, width: 1, height: 1))
        let track = Track(start: 1, axes: .x, knots: [.init(t: 0, x: 0, vx: -100), .init(t: 1, x: -50, vx: 0)])
        let first = try DecodedFrame(encoder.encode([Layer(id: 1, list: list, track: track)], time: 1).delta)
        #expect(first.layers[0].ops == list.bytes && first.layers[0].track == track)
        let same = encoder.encode([Layer(id: 1, list: list, offset: Point(x: -20, y: 0), track: track)], time: 1.5)
        #expect(same.changedLayers == 0 && same.delta.count == FrameFormat.headerSize + 3)
        var other = track
        other.start = 1.5
        let retimed = encoder.encode([Layer(id: 1, list: list, track: other)], time: 1.5)
        #expect(retimed.delta[FrameFormat.headerSize + 2] == FrameFormat.layerTrack && retimed.changedLayers == 1)
        // At rest where the track ends: the receiver shows that already (a track holds its last
        // knot); stopped anywhere else (a catch): a move.
        let rest = encoder.encode([Layer(id: 1, list: list, offset: Point(x: -50, y: 0))], time: 3)
        #expect(rest.changedLayers == 0 && rest.delta.count == FrameFormat.headerSize + 3)
        #expect(encoder.encode([Layer(id: 1, list: list, offset: Point(x: -50, y: 0))], time: 3.1).changedLayers == 0)
        var caught = FrameEncoder()
        _ = caught.encode([Layer(id: 1, list: list, track: track)], time: 1)
        let stopped = try DecodedFrame(
            caught.encode([Layer(id: 1, list: list, offset: Point(x: -40, y: 0))], time: 1.2).delta)
        #expect(
            stopped.layers[0].ops == nil && stopped.layers[0].offset == Point(x: -40, y: 0)
                && stopped.layers[0].track == nil)
    }

    @Test(
        "a malformed track is refused by the decoder: no knots, unknown axes, a wrap without a period, times going back"
    )
    func malformedTracks() throws {
        func frame(axes: UInt8, wrap: [Float] = [], knots: [[Float]]) -> [UInt8] {
            var b = FrameEncoder.header(seq: 1, flags: FrameFormat.flagDelta, time: 0, count: 1)
            append16(&b, 1)
            b.append(FrameFormat.layerTrack)
            let start = (0.0).bitPattern
            append32(&b, UInt32(start & 0xFFFF_FFFF)); append32(&b, UInt32(start >> 32))
            b.append(axes)
            append16(&b, UInt16(knots.count))
            for v in wrap { append32(&b, v.bitPattern) }
            for k in knots { for v in k { append32(&b, v.bitPattern) } }
            return b
        }
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(frame(axes: 1, knots: [])) }
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(frame(axes: 4, knots: [[0, 0, 0]])) }
        #expect(throws: DisplayListDecodingError.self) {
            try DecodedFrame(frame(axes: 1, knots: [[1, 0, 0], [0.5, 0, 0]]))
        }
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(frame(axes: 1, knots: [[1, 0]])) }
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(frame(axes: 1, knots: [[.nan, 0, 0]])) }
        #expect(throws: DisplayListDecodingError.self) {
            try DecodedFrame(frame(axes: 1, knots: [[0, 0, 0], [1, .infinity, 0]]))
        }
        #expect(try DecodedFrame(frame(axes: 1, knots: [[0, 1, 0], [1, 2, 0]])).layers[0].track?.knots.count == 2)
        // Wraps (bit 4): its upper end and period come first, a period must be > 0; bits past 16 are unknown.
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(frame(axes: 1 | 32, knots: [[0, 1, 0]])) }
        // Eased (bit 16): a knot naming a curve the track does not have, a curve whose x leaves 0…1.
        let eased = Track(
            start: 0, axes: .x, knots: [.init(t: 0, x: 0), .init(t: 1, x: 100, curve: 1)], curves: [.easeOut])
        let custom = Track(
            start: 0, axes: .x, knots: [.init(t: 0, x: 0), .init(t: 1, x: 100, curve: 1)],
            curves: [CubicBezierEasing(0.1, 0, 0.58, 1)])
        func frame(_ track: Track) -> [UInt8] {
            var b = FrameEncoder.header(seq: 1, flags: FrameFormat.flagDelta, time: 0, count: 1)
            append16(&b, 1)
            b.append(FrameFormat.layerTrack)
            FrameEncoder.appendTrack(&b, track)
            return b
        }
        let good = frame(eased)
        #expect(try DecodedFrame(good).layers[0].track == eased)
        #expect(try DecodedFrame(frame(custom)).layers[0].track == custom)
        var badCurve = good
        badCurve[badCurve.count - 1] = 2
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(badCurve) }
        // A name CSS does not have.
        var badName = good
        #expect(badName[FrameFormat.headerSize + 3 + 12] == 3)
        badName[FrameFormat.headerSize + 3 + 12] = 5
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(badName) }
        // A curve whose x leaves 0…1: the custom curve's x2 (0.58), after the header, layer id and
        // kind, start, axes, count, curve count, its name (0: its numbers follow), x1, y1.
        var badX = frame(custom)
        let x2 = FrameFormat.headerSize + 3 + 11 + 1 + 1 + 8
        #expect(Array(badX[x2..<x2 + 4]) == Array(withUnsafeBytes(of: Float(0.58).bitPattern.littleEndian, Array.init)))
        badX.replaceSubrange(x2..<x2 + 4, with: withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian, Array.init))
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(badX) }
        // Wide (bit 8): a knot's float32 numbers are too short for it.
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(frame(axes: 1 | 8, knots: [[0, 1, 0]])) }
        #expect(throws: DisplayListDecodingError.self) {
            try DecodedFrame(frame(axes: 5, wrap: [0, 0], knots: [[0, 1, 0]]))
        }
        #expect(throws: DisplayListDecodingError.self) {
            try DecodedFrame(frame(axes: 5, wrap: [0, -40], knots: [[0, 1, 0]]))
        }
        #expect(throws: DisplayListDecodingError.self) { try DecodedFrame(frame(axes: 5, wrap: [0], knots: [])) }
        let wrapped = try #require(
            try DecodedFrame(frame(axes: 5, wrap: [0, 40], knots: [[0, 60, 0]])).layers[0].track)
        #expect(wrapped.wrap == Track.Wrap(upper: 0, period: 40) && wrapped.rest == Point(x: -20, y: 0))
    }
}
