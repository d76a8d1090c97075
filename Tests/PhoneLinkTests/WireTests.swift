import Foundation
import PhoneLinkContract
import PhoneLinkWire
import SessionCore
import SwiftProtobuf
import Testing
import TrackCore

/// The wire form of link messages: compact snapshots, names both ends share.
@Suite("Phone link: wire format")
struct WireTests {
    @Test func aSnapshotWithEveryFieldAtItsLargestPlausibleValueFitsIn64Bytes() throws {
        let snapshot = LinkSnapshot(
            sessionID: "685330d3-b4ce-489e-980f-696cef78dabe",
            state: .paused(.auto),
            distance: 250_000,  // 250 km
            elapsed: 30 * 3600,
            moving: 29 * 3600,
            pace: 3599,
            averagePace: 3599,
            heartRate: 220,
            zone: 5,
            gps: .poor,
            strapLost: true
        )
        let payload = LinkMessage.snapshot(snapshot).payload
        let bytes: [UInt8] = try payload.snapshot.serializedBytes()
        #expect(bytes.count <= 64, "snapshot is \(bytes.count) bytes")
        let decoded = try Wearbridge_Link_V1_Payload(serializedBytes: try payload.serializedBytes() as [UInt8])
        #expect(uuidText(decoded.snapshot.session) == snapshot.sessionID)
        #expect(decoded.snapshot.distanceDm == 2_500_000 && decoded.snapshot.state == .autoPaused)
        #expect(decoded.kindName == "snapshot" && decoded.sessionText == snapshot.sessionID)
    }

    @Test func aRefusalTravelsWithItsReasonCode() {
        let reply = CommandReply(
            commandID: "c",
            command: .pause,
            accepted: false,
            message: "the session is already paused",
            sessionID: "s",
            state: .paused(.command),
            refusal: .alreadyPaused
        )
        let wire = LinkMessage.commandReply(reply).payload.commandReply
        #expect(!wire.ok && wire.reason == .alreadyPaused && wire.kind == .pause && wire.state == .paused)
        for code in RefusalCode.allCases { #expect(RefusalCode(wire: code.wire) == code) }
    }

    @Test func anUnknownPayloadFromANewerVersionDecodesAsUnknownNotAsAnError() throws {
        // Field 99 of Payload does not exist in v1: a newer wearable's message kind.
        let bytes: [UInt8] = [0x9A, 0x06, 0x02, 0x08, 0x01]
        let payload = try Wearbridge_Link_V1_Payload(serializedBytes: bytes)
        #expect(payload.kind == nil && payload.kindName == "unknown")
    }
}
