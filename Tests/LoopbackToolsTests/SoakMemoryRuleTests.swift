import LoopbackTools
import Testing

/// The soak's memory verdict (docs/RELIABILITY.md, "Verdict"): 4 MiB over the reference fails.
@Suite struct SoakMemoryRuleTests {
    private func reading(_ label: String, _ seconds: Double, rss: Int, peak: Int? = nil) -> ServerSample {
        ServerSample(label: label, seconds: seconds, fds: 16, rssKiB: rss, peakKiB: peak)
    }

    @Test(
        "without peaks, the hostile phase's run of 22:43 fails as it did: 4,228 KiB over the warm-up's highest reading")
    func readingsAlone() {
        let samples = [
            reading("start", 0, rss: 26_000), reading("warm-up", 14, rss: 51_704), reading("before", 40, rss: 49_000),
            reading("during", 54, rss: 55_932), reading("during", 99, rss: 55_492), reading("after", 120, rss: 54_000),
        ]
        #expect(SoakMemoryRule.reference(samples) == 51_704)
        #expect(SoakMemoryRule.highestLater(samples)?.kiB == 55_932)
        #expect(
            SoakMemoryRule.problem("hostile", samples: samples, bound: 4096)
                == "hostile: resident memory grew 4228 KiB after the warm-up (bound 4096 KiB): "
                + "51704 KiB at the warm-up's highest, 55932 KiB at most during at 54 s")
    }

    @Test("with peaks, the warm-up's hill top is the reference: rounds reaching 1,096 KiB over it pass")
    func peaksSeeTheHillTops() {
        // A run of 11-25 23:34 UTC: readings on the hills' sides, peaks (VmHWM) at their tops.
        let samples = [
            reading("start", 0, rss: 26_588, peak: 26_588), reading("warm-up", 20, rss: 54_428, peak: 55_424),
            reading("warm-up", 45, rss: 54_444, peak: 55_424), reading("before", 47, rss: 54_444, peak: 55_424),
            reading("during", 67, rss: 55_920, peak: 56_336), reading("during", 112, rss: 56_492, peak: 56_520),
            reading("after", 184, rss: 55_924, peak: 56_520),
        ]
        #expect(SoakMemoryRule.reference(samples) == 55_424)
        #expect(SoakMemoryRule.highestLater(samples)?.kiB == 56_520)
        #expect(SoakMemoryRule.problem("hostile", samples: samples, bound: 4096) == nil)
    }

    @Test("a leak climbs past the warm-up's peak between two readings: the peak so far shows it")
    func leakBetweenReadings() {
        let samples = [
            reading("warm-up", 20, rss: 54_428, peak: 55_424), reading("before", 47, rss: 54_444, peak: 55_424),
            reading("during", 67, rss: 55_000, peak: 59_600), reading("after", 184, rss: 55_100, peak: 59_600),
        ]
        #expect(SoakMemoryRule.highestLater(samples)?.kiB == 59_600)
        #expect(
            SoakMemoryRule.problem("hostile", samples: samples, bound: 4096)
                == "hostile: resident memory grew 4176 KiB after the warm-up (bound 4096 KiB): "
                + "55424 KiB at the warm-up's highest, 59600 KiB at most during at 67 s")
    }

    @Test("a phase without a warm-up round is held to its quiet reading before, readings only")
    func noWarmUp() {
        let passing = [
            reading("before", 10, rss: 30_000, peak: 40_000), reading("during", 300, rss: 33_000, peak: 45_000),
            reading("after", 600, rss: 34_096, peak: 45_000),
        ]
        #expect(SoakMemoryRule.reference(passing) == 30_000)
        #expect(SoakMemoryRule.problem("cycles", samples: passing, bound: 4096) == nil)
        var failing = passing
        failing[2].rssKiB = 34_097
        #expect(
            SoakMemoryRule.problem("cycles", samples: failing, bound: 4096)
                == "cycles: resident memory grew 4097 KiB after the warm-up (bound 4096 KiB): "
                + "30000 KiB before, 34097 KiB at after at 600 s")
        #expect(SoakMemoryRule.reference([reading("during", 1, rss: 1)]) == nil)
    }
}
