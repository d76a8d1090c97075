import Glibc

/// A published equation for the metabolic rate of moving on foot, gross (resting included), in
/// watts, from speed (m/s), grade (rise over run) and the wearer's `Carriage`.
public enum EnergyModel: String, Sendable, CaseIterable, Codable {
    /// The US Army's Load Carriage Decision Aid backpacking equation (Looney et al., Med Sci Sports
    /// Exerc 54:646-654, 2022, equation 4) with its graded-walking term (equation 3, from Looney et
    /// al., Med Sci Sports Exerc 51:346-351, 2019), terrain coefficient 1: standing and walking with
    /// backpack loads up to 66 % of body mass at up to 1.97 m/s.
    case lcda
    /// Pandolf, Givoni and Goldman (J Appl Physiol 43:577-581, 1977), with Santee et al.'s
    /// correction for descents (2001, 2003) as Looney et al. (Mil Med 183:e357, 2018) print it
    /// (the 25·V² term multiplied, correcting the sign the original printed), terrain coefficient 1.
    case pandolf
    /// The American College of Sports Medicine's running equation (ACSM's Guidelines for Exercise
    /// Testing and Prescription, table 6.3): VO2 = 3.5 + 0.2·S + 0.9·S·G mL/kg/min with S in m/min,
    /// at 5 kcal per litre of oxygen, applied to body and load together; the grade term only uphill.
    case acsmRunning = "acsm_running"

    /// The resting metabolic rate the LCDA equation adds (W/kg): 1.25 makes standing without a load
    /// cost 1.44 W/kg, the standing term of the LCDA standing and walking equation (Looney 2019).
    public static let lcdaRestingRate = 1.25
    /// Joules in a kilocalorie (thermochemical).
    public static let joulesPerKilocalorie = 4184.0

    /// Gross metabolic rate in watts. `grade` is rise over run (0.05 is 5 %); standing (speed 0)
    /// has no grade.
    public func power(speed: Double, grade: Double, carriage: Carriage) -> Double {
        let speed = max(0, speed)
        let grade = speed > 0 ? grade : 0
        switch self {
        case .lcda: return Self.lcda(speed: speed, grade: grade, carriage: carriage)
        case .pandolf: return Self.pandolf(speed: speed, grade: grade, carriage: carriage)
        case .acsmRunning: return Self.acsmRunning(speed: speed, grade: grade, carriage: carriage)
        }
    }

    /// M (W/kg body) = Mrest + (0.19 + 1.78·S^0.58 + 0.27·S^4 + Mgrade)·(1 + 1.96·Lbp^1.36),
    /// Mgrade = 34·S·G·(1 − 1.05^(1 − 1.1^(100·G + 32))).
    private static func lcda(speed: Double, grade: Double, carriage: Carriage) -> Double {
        let graded = 34 * speed * grade * (1 - pow(1.05, 1 - pow(1.1, 100 * grade + 32)))
        let walking = 0.19 + 1.78 * pow(speed, 0.58) + 0.27 * pow(speed, 4) + graded
        let load = 1 + 1.96 * pow(carriage.loadFraction, 1.36)
        return (lcdaRestingRate + walking * load) * carriage.bodyMass
    }

    /// M = 1.5·W + 2·(W+L)·(L/W)² + η·(W+L)·(1.5·V² + 0.35·V·G), G in percent; below level, plus
    /// −η·[G·(W+L)·V/3.5 − (W+L)·(G+6)²/W + 25·V²].
    private static func pandolf(speed: Double, grade: Double, carriage: Carriage) -> Double {
        let body = carriage.bodyMass
        let total = carriage.totalMass
        let percent = grade * 100
        let ratio = carriage.loadFraction
        var watts = 1.5 * body + 2 * total * ratio * ratio + total * (1.5 * speed * speed + 0.35 * speed * percent)
        if percent < 0, speed > 0 {
            let shift = percent + 6
            watts -= percent * total * speed / 3.5 - total * shift * shift / body + 25 * speed * speed
        }
        return watts
    }

    private static func acsmRunning(speed: Double, grade: Double, carriage: Carriage) -> Double {
        let metresPerMinute = speed * 60
        let oxygen = 3.5 + 0.2 * metresPerMinute + 0.9 * metresPerMinute * max(0, grade)
        // mL/kg/min × kg → L/min × 5 kcal/L → kcal/min → W.
        let kilocaloriesPerMinute = oxygen * carriage.totalMass / 1000 * 5
        return kilocaloriesPerMinute * joulesPerKilocalorie / 60
    }
}
