#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The WGS84 ellipsoid: radii of curvature and geodesic distance.
///
/// A sphere misjudges distance by up to 0.3% depending on latitude and heading, a third of the
/// whole accuracy budget, so everything metric in the core goes through these.
public enum WGS84 {
    public static let semiMajorAxis = 6_378_137.0
    public static let flattening = 1.0 / 298.257_223_563
    public static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    public static let eccentricitySquared = flattening * (2 - flattening)

    /// Meridional radius of curvature M at a latitude (metres per radian of latitude).
    public static func meridionalRadius(latitudeRadians phi: Double) -> Double {
        let s = sin(phi)
        let w = 1 - eccentricitySquared * s * s
        return semiMajorAxis * (1 - eccentricitySquared) / (w * w.squareRoot())
    }

    /// Prime-vertical radius of curvature N at a latitude.
    public static func primeVerticalRadius(latitudeRadians phi: Double) -> Double {
        let s = sin(phi)
        return semiMajorAxis / (1 - eccentricitySquared * s * s).squareRoot()
    }

    /// Geodesic distance in metres between two points (Vincenty's inverse formula).
    ///
    /// Accurate to well under a millimetre; for nearly antipodal points where the iteration does
    /// not converge it returns the last iterate, which is still within metres.
    public static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let deg = Double.pi / 180
        let f = flattening
        let bAxis = semiMinorAxis
        let l = (b.longitude - a.longitude) * deg
        let u1 = atan((1 - f) * tan(a.latitude * deg))
        let u2 = atan((1 - f) * tan(b.latitude * deg))
        let sinU1 = sin(u1)
        let cosU1 = cos(u1)
        let sinU2 = sin(u2)
        let cosU2 = cos(u2)
        var lambda = l
        var sinSigma = 0.0
        var cosSigma = 0.0
        var sigma = 0.0
        var cosSqAlpha = 0.0
        var cos2SigmaM = 0.0
        for _ in 0..<200 {
            let sinLambda = sin(lambda)
            let cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSqAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSqAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0
            let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let previous = lambda
            lambda =
                l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 { break }
        }
        let aAxis = semiMajorAxis
        let uSq = cosSqAlpha * (aAxis * aAxis - bAxis * bAxis) / (bAxis * bAxis)
        let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let deltaSigma =
            bigB * sinSigma
            * (cos2SigmaM + bigB / 4
                * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                    - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return bAxis * bigA * (sigma - deltaSigma)
    }
}
