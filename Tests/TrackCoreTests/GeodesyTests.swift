import Testing

@testable import TrackCore

@Suite struct GeodesyTests {
    @Test func vincentyMatchesTheClassicFlindersPeakToBuninyongLine() {
        // Vincenty's own 1975 test line, 54 972.271 m on the ellipsoid.
        let flinders = GeoPoint(
            latitude: -(37 + 57 / 60.0 + 3.72030 / 3600),
            longitude: 144 + 25 / 60.0 + 29.52440 / 3600
        )
        let buninyong = GeoPoint(
            latitude: -(37 + 39 / 60.0 + 10.15610 / 3600),
            longitude: 143 + 55 / 60.0 + 35.38390 / 3600
        )
        #expect(abs(WGS84.distance(flinders, buninyong) - 54_972.271) < 0.01)
    }

    @Test func oneDegreeOfLongitudeAtTheEquatorIsTheSemiMajorArc() {
        let d = WGS84.distance(GeoPoint(latitude: 0, longitude: 10), GeoPoint(latitude: 0, longitude: 11))
        #expect(abs(d - 111_319.491) < 0.01)
    }

    @Test func aSphereMisjudgesMeridianDistanceByTenthsOfAPercent() {
        // North-south at 60 degrees: the ellipsoid's meridian is longer than a mean sphere's.
        let a = GeoPoint(latitude: 60, longitude: 10)
        let b = GeoPoint(latitude: 60.01, longitude: 10)
        let sphere = 6_371_008.8 * 0.01 * Double.pi / 180
        let ellipsoid = WGS84.distance(a, b)
        #expect(abs(ellipsoid - sphere) / ellipsoid > 0.0015)
    }

    @Test(arguments: [0.0, 45.0, 70.0])
    func localFrameAgreesWithVincentyNearItsOrigin(latitude: Double) {
        let frame = LocalFrame(origin: GeoPoint(latitude: latitude, longitude: 20))
        for (east, north) in [(250.0, 0.0), (0.0, 250.0), (177.0, -177.0), (3.0, 4.0)] {
            let a = frame.unproject(LocalPoint(east: 0, north: 0))
            let b = frame.unproject(LocalPoint(east: east, north: north))
            let plane = (east * east + north * north).squareRoot()
            let geodesic = WGS84.distance(a, b)
            #expect(abs(plane - geodesic) / geodesic < 1e-4)
        }
    }

    @Test func projectAndUnprojectRoundTrip() {
        let frame = LocalFrame(origin: GeoPoint(latitude: 51.5, longitude: -0.12))
        let p = GeoPoint(latitude: 51.5031, longitude: -0.1187)
        let back = frame.unproject(frame.project(p))
        #expect(abs(back.latitude - p.latitude) < 1e-12 && abs(back.longitude - p.longitude) < 1e-12)
    }

    @Test func implausibleCoordinatesAreRecognised() {
        #expect(!GeoPoint(latitude: .nan, longitude: 0).isPlausible)
        #expect(!GeoPoint(latitude: 91, longitude: 0).isPlausible)
        #expect(!GeoPoint(latitude: 10, longitude: -180.5).isPlausible)
        #expect(!GeoPoint(latitude: 0, longitude: 0).isPlausible)
        #expect(GeoPoint(latitude: -33.9, longitude: 151.2).isPlausible)
    }
}
