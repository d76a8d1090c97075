/// One session against the receiver's own Doppler integral of the same epochs: ours no further from
/// the truth than it, except where that integral is wrong by design, named.
///
/// Standing still is such a place: every receiver's Doppler is noise there, and a speed's noise
/// integrates to distance (4.6 m over the dog walk's 125 s of stops), while the core rightly
/// credits nothing. So the verdict compares against the integral with and without its standing
/// part, and says which it needed.
struct DopplerVerdict {
    let name: String
    let ours: Double
    let doppler: Double
    let standing: Double
    let truth: Double

    enum Outcome: Equatable {
        case nearer
        /// Nearer only once the integral's standing noise is left out of it.
        case nearerWithoutStanding
        case further(metres: Double)
    }

    /// The Doppler integral with its standing part left out.
    var withoutStanding: Double { doppler - standing }

    var outcome: Outcome {
        let ourError = abs(ours - truth)
        if ourError <= abs(doppler - truth) { return .nearer }
        if ourError <= abs(withoutStanding - truth) { return .nearerWithoutStanding }
        return .further(metres: ourError - min(abs(doppler - truth), abs(withoutStanding - truth)))
    }

    var text: String {
        switch outcome {
        case .nearer: "nearer"
        case .nearerWithoutStanding: String(format: "exception: standing (its noise %.1f m)", standing)
        case .further(let metres): String(format: "FURTHER by %.1f m", metres)
        }
    }

    static func print(_ verdicts: [DopplerVerdict]) {
        StandardOutput.line("")
        StandardOutput.line(
            "against the Doppler integral (metres; standing: its integral while standing, which is noise)"
        )
        StandardOutput.line(
            "session".padding(toLength: 26, withPad: " ", startingAt: 0) + rightAligned("ours-truth", 12)
                + rightAligned("Doppler-truth", 15) + rightAligned("standing", 10)
                + rightAligned("without standing", 18) + "  verdict"
        )
        for verdict in verdicts {
            func error(_ value: Double) -> String { String(format: "%+.1f", value - verdict.truth) }
            StandardOutput.line(
                verdict.name.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + rightAligned(error(verdict.ours), 12) + rightAligned(error(verdict.doppler), 15)
                    + rightAligned(String(format: "%.1f", verdict.standing), 10)
                    + rightAligned(error(verdict.withoutStanding), 18) + "  " + verdict.text
            )
        }
    }
}
