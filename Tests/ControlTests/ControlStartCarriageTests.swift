import Control
import ControlProtocol
import Energy
import Engine
import Testing

/// `ctl start --body-mass --load` on the wire: read by name, checked at the edge, handed to the
/// engine typed; out of range refused with the reason, never applied.
@Suite struct ControlStartCarriageTests {
    private func request(_ json: String) throws -> ControlRequest {
        try ControlCodec.decodeRequest(Array(json.utf8)).get()
    }

    @Test func aStartsBodyMassAndLoadReachTheEngine() throws {
        let start = try request(#"{"command":"start","id":"a1","body_mass_kg":81.5,"load_kg":20}"#)
        guard case .ask(let input) = start.translated, case .command(let command) = input(ReplyToken(1)) else {
            Issue.record("not handed to the engine")
            return
        }
        #expect(command.carriage == (try CarriageOverride.checked(bodyMass: 81.5, load: 20).get()))
        let plain = try request(#"{"command":"start","id":"a2"}"#)
        guard case .ask(let bare) = plain.translated, case .command(let none) = bare(ReplyToken(2)) else {
            Issue.record("not handed to the engine")
            return
        }
        #expect(none.carriage == .none)
    }

    @Test(arguments: [
        (#"{"command":"start","id":"b1","body_mass_kg":8}"#, "body mass 8.0 kg is outside 25-250 kg"),
        (#"{"command":"start","id":"b2","load_kg":500}"#, "load 500.0 kg is outside 0-120 kg"),
    ])
    func aCarriageOutOfRangeIsRefusedWithItsReason(json: String, reason: String) throws {
        guard case .refuse(let reply) = try request(json).translated else {
            Issue.record("accepted: \(json)")
            return
        }
        #expect(!reply.ok)
        #expect(reply.error == reason)
    }
}
