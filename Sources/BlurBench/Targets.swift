/// The figures `make bench` holds to a target (issue 44's bar and the ones before it), collected as
/// the tables are measured and printed together at the top of docs/benchmarks.md: each figure beside
/// its target and whether this run met it. A figure is only ever recorded from a measurement of the
/// same run; a table that was not measured (a peer missing, `--quick`) records nothing.
@MainActor
enum Targets {
    /// One measured figure: what it is, its value as printed, the bar, and whether the value meets it.
    struct Row {
        let figure: String
        let measured: String
        let target: String
        let met: Bool
    }

    private(set) static var rows: [Row] = []

    /// Records a ratio that must be at least `bar` (“≥ bar×”).
    static func atLeast(_ figure: String, _ value: Double, _ bar: Double) {
        rows.append(Row(figure: figure, measured: fmt(value, 2) + "×", target: "≥ " + fmt(bar, 1) + "×", met: value >= bar))
    }

    /// Records a ratio that must be at most `bar` (“≤ bar×”).
    static func atMost(_ figure: String, _ value: Double, _ bar: Double) {
        rows.append(Row(figure: figure, measured: fmt(value, 2) + "×", target: "≤ " + fmt(bar, 1) + "×", met: value <= bar))
    }

    /// Records accuracy against the float64 reference: at least `decibels` and a largest byte
    /// difference of at most `maximum`.
    static func accuracy(_ figure: String, psnr: Double, maximum: Int, decibels: Double = 58, largest: Int = 3) {
        rows.append(
            Row(
                figure: figure, measured: (psnr.isInfinite ? "∞" : fmt(psnr)) + " dB, ≤ \(maximum)",
                target: "≥ \(fmt(decibels, 0)) dB, ≤ \(largest)", met: psnr >= decibels && maximum <= largest))
    }

    /// The table, for the top of the page: how many of the figures met their target, then each.
    static func table() -> [String] {
        guard !rows.isEmpty else { return [] }
        let met = rows.filter(\.met).count
        return [
            "",
            "Targets: \(met) of \(rows.count) figures of this run meet theirs. Not counted here: the figures measured in headless Chromium after these (the header, the module's size, Liquid Glass and the scrolling page), at the end of the page, each beside its target.",
            "",
            "| figure | measured | target | met |",
            "|---|---|---|---|",
        ] + rows.map { "| \($0.figure) | \($0.measured) | \($0.target) | \($0.met ? "yes" : "**no**") |" }
    }
}
