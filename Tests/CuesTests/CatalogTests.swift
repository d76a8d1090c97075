import CueLanguages
import Cues
import Foundation
import Harness
import Testing

/// The words: golden texts in both languages and both unit systems, and strict catalogs.
@Suite("Cue catalogs")
struct CatalogTests {
    let english = try! CueCatalogs(directory: nil).catalog("en")
    let german = try! CueCatalogs(directory: nil).catalog("de")

    @Test func englishMetric() {
        let say = { (message: CueMessage) in english.text(message, units: .metric) }
        #expect(
            say(.summary([.distanceIn(distance: 5000, elapsed: 1450), .currentPace(290)]))
                == "5 kilometres in 24 minutes 10 seconds, current pace 4 minutes 50 per kilometre."
        )
        #expect(
            say(.split(index: 3, duration: 301.4, pace: 301.4, heartRate: 152.6))
                == "Split 3, 5 minutes 1 second, pace 5 minutes 1 per kilometre, heart rate 153."
        )
        #expect(
            say(.sessionEnded(distance: 10_234, moving: 3661, averagePace: 357.7, averageHeartRate: nil))
                == "Session ended, 10.2 kilometres in 1 hour 1 minute 1 second, average pace 5 minutes 58 per kilometre."
        )
        #expect(
            say(.sessionEnded(distance: 8000, moving: 2700, averagePace: nil, averageHeartRate: nil, climbed: 212.4))
                == "Session ended, 8 kilometres in 45 minutes, climbed 212 metres."
        )
        #expect(
            say(.sessionEnded(distance: 8000, moving: 2700, averagePace: nil, averageHeartRate: nil, climbed: 0.4))
                == "Session ended, 8 kilometres in 45 minutes."
        )
        #expect(
            say(.sessionEnded(distance: 8000, moving: 2700, averagePace: nil, averageHeartRate: nil, energy: 612.6))
                == "Session ended, 8 kilometres in 45 minutes, 613 kilocalories."
        )
        #expect(
            say(.sessionEnded(distance: 2100, moving: 1500, averagePace: nil, averageHeartRate: nil, steps: 3_120))
                == "Session ended, 2.1 kilometres in 25 minutes, 3120 steps."
        )
        #expect(
            say(.sessionEnded(distance: 2100, moving: 1500, averagePace: nil, averageHeartRate: nil, steps: 0))
                == "Session ended, 2.1 kilometres in 25 minutes."
        )
        #expect(
            say(.summary([.distance(640), .averagePace(300)])) == "640 metres, average pace 5 minutes per kilometre."
        )
        #expect(say(.summary([.distance(1000)])) == "1 kilometre.")
        #expect(say(.zone(.above(target: 3))) == "Above zone 3.")
        #expect(say(.batteryLow(percent: 9)) == "Heart rate strap battery low, 9 percent.")
    }

    @Test func englishImperial() {
        let say = { (message: CueMessage) in english.text(message, units: .imperial) }
        #expect(
            say(.summary([.distanceIn(distance: 8046.72, elapsed: 2400), .averagePace(298.26)]))
                == "5 miles in 40 minutes, average pace 8 minutes per mile."
        )
        #expect(say(.summary([.distance(1609.344)])) == "1 mile.")
        #expect(
            say(.split(index: 1, duration: 300, pace: 300, heartRate: nil))
                == "Split 1, 5 minutes, pace 8 minutes 3 per mile."
        )
    }

    @Test func germanMetricAndImperial() {
        #expect(
            german.text(.summary([.distanceIn(distance: 5000, elapsed: 1450), .currentPace(290)]), units: .metric)
                == "5 Kilometer in 24 Minuten 10 Sekunden, aktuelle Pace 4 Minuten 50 pro Kilometer."
        )
        #expect(
            german.text(
                .sessionEnded(distance: 7250, moving: 2400, averagePace: 331, averageHeartRate: 148),
                units: .metric
            )
                == "Training beendet, 7,25 Kilometer in 40 Minuten, durchschnittliche Pace 5 Minuten 31 pro Kilometer, "
                + "durchschnittlicher Puls 148."
        )
        #expect(
            german.text(.summary([.distance(2414.016)]), units: .imperial) == "1,5 Meilen."
        )
        #expect(german.text(.summary([.distance(1609.344)]), units: .imperial) == "1 Meile.")
        #expect(german.text(.gpsLost(again: true), units: .metric) == "GPS weiterhin verloren.")
        #expect(german.voice == "de" && english.voice == "en-gb")
    }

    /// A course's cues: where it starts, off it and back, a turn ahead (its distance as a cue says
    /// distances, to 10 m), its end; in both languages and in miles.
    @Test func courseCues() {
        let metric = { (message: CueMessage) in english.text(message, units: .metric) }
        #expect(metric(.course(.following(name: "Prater", length: 5000))) == "Following Prater, 5 kilometres.")
        #expect(metric(.course(.offCourse(away: 43))) == "Off course, 40 metres away.")
        #expect(metric(.course(.backOnCourse(at: 650))) == "Back on course.")
        #expect(metric(.course(.turnAhead(.left, metres: 97))) == "In 100 metres, turn left.")
        #expect(metric(.course(.turnAhead(.sharpRight, metres: 92))) == "In 90 metres, turn sharp right.")
        #expect(metric(.course(.turnAhead(.uTurn, metres: 100))) == "In 100 metres, turn back.")
        #expect(metric(.course(.finished(name: "Prater"))) == "Prater finished.")
        #expect(
            german.text(.course(.turnAhead(.right, metres: 100)), units: .metric)
                == "Noch 100 Meter, dann rechts abbiegen."
        )
        #expect(german.text(.course(.offCourse(away: 60)), units: .metric) == "Abseits der Strecke, 60 Meter entfernt.")
        #expect(
            english.text(.course(.following(name: "Loop", length: 1609.344)), units: .imperial)
                == "Following Loop, 1 mile."
        )
        #expect(CueMessage.course(.turnAhead(.left, metres: 100)).kind == .turn && CueKind.turn.group == .course)
    }

    /// A race's gap: in metres, and in time once the runners are a second or more apart there.
    @Test func raceGapCues() {
        let metric = { (message: CueMessage) in english.text(message, units: .metric) }
        #expect(
            metric(.summary([.gap(partner: "Bob", metres: 42.4, seconds: 13.6)]))
                == "42 metres, 14 seconds ahead of Bob."
        )
        #expect(
            metric(.summary([.gap(partner: "Bob", metres: -250, seconds: -75)]))
                == "250 metres, 1 minute 15 seconds behind Bob."
        )
        #expect(metric(.summary([.gap(partner: "Bob", metres: 2, seconds: 0.6)])) == "2 metres ahead of Bob.")
        #expect(metric(.summary([.gap(partner: "Bob", metres: -20, seconds: nil)])) == "20 metres behind Bob.")
        #expect(
            german.text(.summary([.gap(partner: "Bob", metres: -42, seconds: -14)]), units: .metric)
                == "42 Meter, 14 Sekunden hinter Bob."
        )
    }

    @Test func aNewLanguageIsAFileNotCode() throws {
        let directory = try temporaryDirectory("catalogs")
        var text = String(decoding: CueCatalogs.builtIn["en"]!, as: UTF8.self)
        text = text.replacingOccurrences(of: "language = \"en\"", with: "language = \"fr\"")
            .replacingOccurrences(of: "\"Session started\"", with: "\"Séance commencée\"")
        try text.write(toFile: "\(directory)/fr.toml", atomically: true, encoding: .utf8)
        let catalogs = CueCatalogs(directory: directory)
        #expect(catalogs.languages().contains("fr"))
        #expect(try catalogs.catalog("fr").text(.sessionStarted, units: .metric) == "Séance commencée.")
    }

    @Test func aCatalogMissingATextOrWithAStrayKeyIsRefusedByName() throws {
        let text = String(decoding: CueCatalogs.builtIn["en"]!, as: UTF8.self)
        let missing = text.replacingOccurrences(of: "gps_regained = \"GPS back\"\n", with: "")
        #expect {
            try CueCatalogs.parse(missing, path: "x.toml")
        } throws: { "\($0)".contains("texts.gps_regained") }
        let stray = text.replacingOccurrences(of: "[texts]\n", with: "[texts]\ngps_regaind = \"typo\"\n")
        #expect {
            try CueCatalogs.parse(stray, path: "x.toml")
        } throws: { "\($0)".contains("texts.gps_regaind") }
        #expect {
            try CueCatalogs.parse("language = \"xx\"\nvoice = 3\n", path: "x.toml")
        } throws: { "\($0)".contains("voice") }
        #expect {
            try CueCatalogs(directory: nil).catalog("klingon")
        } throws: { "\($0)".contains("de, en") }
    }
}
