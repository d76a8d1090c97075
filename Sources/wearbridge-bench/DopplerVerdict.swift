/// Issue 25's second goal for one session: ours no further from the truth than the receiver's
/// Doppler integral of the same epochs, except where that integral is wrong by design, named.
///
/// Standing still is such a place: every receiver's Doppler is noise there, and a speed's noise
/// integrates to distance (4.6 m over the dog walk's 125 s of stops), while the core rightly
/// credits nothing. So the verdict compares against the integral with and without its standing
/// part, and says which it needed.
struct DopplerVerdict {
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

    var outcome: Outcome {
        let ourError = abs(ours - truth)
        if ourError <= abs(doppler - truth) { return .nearer }
        if ourError <= abs(doppler - standing - truth) { return .nearerWithoutStanding }
        return .further(metres: ourError - min(abs(doppler - truth), abs(doppler - standing - truth)))
    }

    var text: String {
        switch outcome {
        case .nearer: "nearer"
        case .nearerWithoutStanding: String(format: "exception: standing (its noise %.1f m)", standing)
        case .further(let metres): String(format: "FURTHER by %.1f m", metres)
        }
    }
}
