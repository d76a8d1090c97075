import DashboardCore
import Foundation
import PhoneLinkMessages
import PhoneRaceCore
import PhoneServer
import RaceCore
import RelayContract
import Testing
import TrackCore
import Yams

@testable import DashboardServer

/// The dashboard's bodies against `openapi.yaml`: every body, in every shape it takes, is what its
/// schema says (required fields there, nothing undocumented, types and enums as written, null only
/// where nullable); every documented field is written by some body; every JSON response the document
/// lists is a body's. Neither the document nor the types can change without the other.
@Suite struct APIContractTests {
    static let document = try! OpenAPIDocument.load()

    @Test func everyBodyIsWhatItsSchemaSays() throws {
        var check = SchemaCheck(document: Self.document)
        for example in APIExamples.all {
            try check.body(example)
        }
        #expect(check.problems == [])
    }

    @Test func everyDocumentedFieldIsWrittenBySomeBody() throws {
        var check = SchemaCheck(document: Self.document)
        for example in APIExamples.all {
            try check.body(example)
        }
        let unwritten = check.documented.subtracting(check.written).sorted()
        #expect(unwritten == [], "documented but never written with a value")
    }

    @Test func everyJSONResponseIsABodys() throws {
        let claimed = Set(APIExamples.all.map { type(of: $0).schema })
        var unclaimed: [String] = []
        for pointer in Self.document.responseSchemas() {
            let alternatives = Self.document.alternatives(pointer)
            for alternative in alternatives where !claimed.contains(alternative) {
                unclaimed.append(alternative)
            }
        }
        #expect(unclaimed == [], "JSON responses in the document that no body claims")
        for schema in claimed {
            #expect(Self.document.resolve(schema) != nil, "\(schema) is not in the document")
        }
    }

    /// Every schema in the document uses only keywords the check reads or that constrain nothing it
    /// tests (a description, a bound): a keyword it would skip cannot hide a rule.
    @Test func everySchemaUsesKeywordsTheCheckKnows() {
        let known: Set<String> = [
            "type", "properties", "required", "items", "enum", "nullable", "allOf", "oneOf", "$ref", "description",
            "minimum", "maximum", "maxLength", "pattern", "format",
        ]
        var unknown: [String] = []
        var pointers = Self.document.responseSchemas()
        let components = (Self.document.resolve("#/components/schemas") as? [String: Any] ?? [:]).keys
        pointers += components.map { "#/components/schemas/\($0)" }
        while let pointer = pointers.popLast() {
            guard let schema = Self.document.resolve(pointer) as? [String: Any] else {
                unknown.append("\(pointer): not a schema")
                continue
            }
            unknown += schema.keys.filter { !known.contains($0) }.map { "\(pointer): \($0)" }
            pointers += (schema["properties"] as? [String: Any] ?? [:]).keys.map { "\(pointer)/properties/\($0)" }
            if schema["items"] != nil { pointers.append("\(pointer)/items") }
            for keyword in ["allOf", "oneOf"] {
                pointers += (schema[keyword] as? [Any] ?? []).indices.map { "\(pointer)/\(keyword)/\($0)" }
            }
        }
        #expect(unknown.sorted() == [], "keywords the check does not know")
    }

    /// The enums the bodies write, both ways: every case is documented, every documented value a case.
    @Test func enumsMatchTheirDocumentedValues() {
        let pairs: [(String, [String])] = [
            ("#/components/schemas/Link/properties/state", LinkStrip.State.allCases.map(\.rawValue)),
            ("#/components/schemas/Snapshot/properties/state", SnapshotBody.State.allCases.map(\.rawValue)),
            ("#/components/schemas/Message/properties/state", SnapshotBody.State.allCases.map(\.rawValue)),
            ("#/components/schemas/Snapshot/properties/gps", SnapshotBody.GPS.allCases.map(\.rawValue)),
            ("#/components/schemas/CommandState/properties/state", CommandStateBody.State.allCases.map(\.rawValue)),
            (
                "#/components/schemas/Session/properties/distance_source",
                DistanceSource.allCases.map(\.rawValue)
            ),
            ("#/components/schemas/Session/properties/backfill", BackfillState.Progress.allCases.map(\.rawValue)),
            ("#/components/schemas/Race/properties/leader", RaceBody.Leader.allCases.map(\.rawValue)),
            ("#/components/schemas/Message/properties/kind", MessageKind.allCases.map(\.rawValue)),
            ("#/components/schemas/Race/properties/relay_state", RelayRun.State.allCases.map(\.rawValue)),
            ("#/components/schemas/Race/properties/partner_state", PartnerState.allCases.map(\.rawValue)),
            ("#/components/schemas/Race/properties/partner_link", PartnerLink.allCases.map(\.rawValue)),
            (
                "#/components/schemas/Race/properties/events/items/properties/source",
                PartnerNews.Source.allCases.map(\.rawValue)
            ),
            ("#/components/schemas/RelayRun/properties/state", RelayRun.State.allCases.map(\.rawValue)),
            ("#/components/schemas/CourseFigures/properties/state", SnapshotBody.Course.State.allCases.map(\.rawValue)),
        ]
        for (pointer, cases) in pairs {
            let documented = Self.document.enumValues(pointer)
            #expect(Set(documented) == Set(cases), "\(pointer)")
        }
    }

    /// The check itself finds what it is for: each kind of drift in a body is reported.
    @Test(arguments: [
        (#"{"error": "x", "message": "y", "extra": 1}"#, "undocumented"),
        (#"{"error": "x"}"#, "missing"),
        (#"{"error": 3, "message": "y"}"#, "not a string"),
        (#"{"error": null, "message": "y"}"#, "null"),
    ])
    func theCheckFindsDrift(json: String, finding: String) throws {
        var check = SchemaCheck(document: Self.document)
        try check.json(Data(json.utf8), schema: APIError.schema)
        #expect(check.problems.contains { $0.contains(finding) }, "\(check.problems)")
    }

    @Test func theCheckFindsABadEnumValueAndAWrongNumber() throws {
        var check = SchemaCheck(document: Self.document)
        try check.json(
            Data(#"{"id": "abcdefgh", "state": "maybe", "session": 1.5}"#.utf8),
            schema: CommandStateBody.schema
        )
        #expect(check.problems.contains { $0.contains("not one of") }, "\(check.problems)")
        #expect(check.problems.contains { $0.contains("not a string") }, "\(check.problems)")
        var integers = SchemaCheck(document: Self.document)
        try integers.json(Data(#"{"ok": true, "open_streams": 1.5}"#.utf8), schema: Health.schema)
        #expect(integers.problems.contains { $0.contains("not an integer") }, "\(integers.problems)")
    }

    /// The encoder writes what the page reads: snake case, nulls kept, stamps beside the body.
    @Test func theEncodingIsThePages() throws {
        let text = try JSONText.encode(Stamped(APIExamples.snapshot(full: false), serverTimeMs: 7))
        #expect(text.contains(#""heart_rate":null"#))
        #expect(text.contains(#""zone_floors_bpm":[]"#))
        #expect(text.contains(#""server_time_ms":7"#))
        #expect(text.contains(#""state":"auto_paused""#))
    }
}
