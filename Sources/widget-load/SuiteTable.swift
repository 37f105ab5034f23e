import Foundation

/// The suite's reports as Markdown tables, each figure beside its budget (docs/DESIGN.md).
struct SuiteTable {
    let latency: [LoadReport]
    let fanOut: [LoadReport]
    let idle: LoadReport

    var text: String {
        var lines = [
            "## Input-to-frame against echo (ms; one connection, interleaved)", "",
            "| clients | samples | input→frame median | p99 | echo median | p99 | ratio (budget ≤ 1.30) | server CPU | generator CPU |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in latency {
            let l = r.latency
            lines.append(
                row(
                    "\(r.clients)", "\(l?.samples ?? 0)", ms(l?.inputToFrameMs.median), ms(l?.inputToFrameMs.p99),
                    ms(l?.echoMs.median), ms(l?.echoMs.p99), fixed(l?.ratio, 2), percent(r.serverCPU),
                    percent(r.generatorCPU)))
        }
        lines += [
            "", "## Fan-out during a continuous fling (budget: 2,000 clients at 60 fps, ≥ 99 % delivered)", "",
            "| clients | rooms | joined | fps per client median (min) | delivered median (min) | rendered fps | KB/s per client | server CPU | generator CPU | server RSS per client |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in fanOut {
            lines.append(
                row(
                    "\(r.clients)", "\(r.rooms)", "\(r.connected)",
                    "\(fixed(r.framesPerClientPerSecond.median, 1)) (\(fixed(r.framesPerClientPerSecond.min, 1)))",
                    "\(percent(r.deliveredShare.median, 2)) (\(percent(r.deliveredShare.min, 2)))",
                    fixed(r.renderedPerSecond, 1), fixed(r.bytesPerClientPerSecond.median.map { $0 / 1000 }, 1),
                    percent(r.serverCPU), percent(r.generatorCPU),
                    r.serverMemory.map { "\(fixed($0.perClientKiB, 1)) KiB" } ?? "–"))
        }
        let slope = rssSlope(fanOut.filter { $0.rooms == 1 })
        lines += [
            "", "## Memory and idle traffic", "",
            "| figure | measured | budget |", "|---|---:|---:|",
            "| server RSS slope over N (one room, after joining) | \(fixed(slope, 1)) KiB per client | ≤ 64 KB |",
            "| bytes received by \(idle.connected) idle clients in 1 s | \(idle.idleBytes.map(String.init) ?? "–") B | 0 B |",
        ]
        let errors = (latency + fanOut + [idle]).flatMap(\.errors).map { "\($0.value) × \($0.key)" }
        if !errors.isEmpty { lines += ["", "Connection errors: " + errors.joined(separator: "; ")] }
        return lines.joined(separator: "\n")
    }

    /// Least-squares slope of resident memory over client count.
    private func rssSlope(_ reports: [LoadReport]) -> Double? {
        let points = reports.compactMap { r in r.serverMemory.map { (Double(r.clients), Double($0.afterKiB)) } }
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let mx = points.map(\.0).reduce(0, +) / n, my = points.map(\.1).reduce(0, +) / n
        let sxx = points.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
        let sxy = points.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +)
        return sxx > 0 ? sxy / sxx : nil
    }

    private func row(_ cells: String...) -> String { "| " + cells.joined(separator: " | ") + " |" }
    private func ms(_ v: Double?) -> String { fixed(v, 3) }
    private func fixed(_ v: Double?, _ digits: Int) -> String { TableFigures.fixed(v, digits) }
    private func percent(_ v: Double?, _ digits: Int = 0) -> String { TableFigures.percent(v, digits) }
}
