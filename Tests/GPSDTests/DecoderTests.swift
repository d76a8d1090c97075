import Testing
import TrackCore

@testable import GPSD

@Suite struct DecoderTests {
    let decoder = GPSDDecoder()

    func decode(_ text: String) throws(GPSDDecodeError) -> GPSDMessage { try decoder.decode(Array(text.utf8)) }

    @Test func isoTimesParseExactly() {
        #expect(ISO8601Time.parse("1970-01-01T00:00:00Z")?.seconds == 0)
        #expect(ISO8601Time.parse("2025-06-14T06:30:01.000Z")?.seconds == 1_749_882_601)
        #expect(ISO8601Time.parse("2000-02-29T12:00:00.25Z")?.seconds == 951_825_600.25)
        #expect(ISO8601Time.parse("2025-06-14T08:30:01+02:00")?.seconds == 1_749_882_601)
        for bad in [
            "", "2025-06-14", "2025-13-01T00:00:00Z", "2025-06-14T06:30:01", "2025-06-14T06:30:01.Z",
            "2025-06-14T06:30:01Zjunk", "yyyy-06-14T06:30:01Z",
        ] {
            #expect(ISO8601Time.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func aTPVDecodesWithEveryFieldWeUse() throws {
        let line = """
            {"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2025-06-14T06:30:11.000Z","ept":0.005,\
            "lat":48.134879592,"lon":11.581680135,"altHAE":507.847,"epx":3.1,"epy":3.4,"eph":17.218,\
            "speed":4.081,"track":151.34,"eps":0.768,"someFutureField":{"x":[1,2]}}
            """
        guard case .tpv(let tpv) = try decode(line) else {
            Issue.record("not a TPV")
            return
        }
        let fix = tpv.fix(receivedAt: 12.5)
        #expect(fix.mode == 3 && fix.time?.seconds == 1_749_882_611)
        #expect(fix.position == GeoPoint(latitude: 48.134879592, longitude: 11.581680135))
        #expect(fix.errorEast == 3.1 && fix.errorNorth == 3.4 && fix.horizontalError == 17.218)
        #expect(fix.speed == 4.081 && fix.track == 151.34 && fix.speedError == 0.768 && fix.receivedAt == 12.5)
    }

    @Test func altitudeIsAboveSeaLevelWhenGpsdSaysSoElseAboveTheEllipsoid() throws {
        let both = #"{"class":"TPV","mode":3,"lat":48.1,"lon":11.5,"altHAE":560.2,"altMSL":512.7}"#
        let ellipsoid = #"{"class":"TPV","mode":3,"lat":48.1,"lon":11.5,"altHAE":560.2}"#
        let old = #"{"class":"TPV","mode":3,"lat":48.1,"lon":11.5,"alt":511.0}"#
        for (text, expected) in [(both, 512.7), (ellipsoid, 560.2), (old, 511.0)] {
            guard case .tpv(let tpv) = try decode(text) else {
                Issue.record("not a TPV: \(text)")
                continue
            }
            #expect(tpv.fix().altitude == expected)
            #expect(TPV(tpv.fix()).fix().altitude == expected, "and back")
        }
    }

    @Test func aNoFixTPVHasOnlyAMode() throws {
        guard case .tpv(let tpv) = try decode(#"{"class":"TPV","mode":1,"time":"2023-12-09T23:59:43.000Z"}"#)
        else {
            Issue.record("not a TPV")
            return
        }
        #expect(tpv.mode == 1 && tpv.latitude == nil && tpv.eph == nil)
    }

    @Test func versionsAreInformationalWhateverProtoMajorSays() throws {
        for (major, release) in [(0, "3.27.0"), (16, "3.27.5"), (3, "3.22")] {
            let line = #"{"class":"VERSION","release":"\#(release)","proto_major":\#(major),"proto_minor":1}"#
            #expect(try decode(line) == .version(.init(release: release, protoMajor: major, protoMinor: 1)))
        }
    }

    @Test func unknownClassesAreKeptByName() throws {
        #expect(try decode(#"{"class":"GST","rms":1.2}"#) == .other(className: "GST"))
        #expect(try decode(#"{"class":"ERROR","message":"Unrecognized request"}"#) == .error("Unrecognized request"))
    }

    @Test(arguments: [
        ("not json at all", ""),
        (#"{"class":"TPV","mode":3"#, ""),
        (#"[1,2,3]"#, ""),
        (#"{"mode":3}"#, "class"),
        (#"{"class":"TPV","mode":3,"lat":"north"}"#, "lat"),
        (#"{"class":"TPV","mode":"3"}"#, "mode"),
        (#"{"class":"TPV","mode":3,"time":"yesterday"}"#, "time"),
        ("\u{0}\u{1}\u{2}", ""),
    ])
    func malformedLinesAreClearErrorsNamingTheField(line: String, field: String) {
        do {
            _ = try decode(line)
            Issue.record("decoded \(line)")
        } catch {
            #expect(!error.description.isEmpty)
            if !field.isEmpty { #expect(error.description.contains(field), "\(error.description)") }
        }
    }
}
