import ATT
import Config
import ControlProtocol
import CueAudio
import Foundation
import GATT
import GPSD
import HeartRate
import Logging
import PhoneLinkContract
import PhoneLinkWire
import Replay
import SpeedSensors
import SwiftProtobuf
import TrackCore

/// Every parser of bytes we do not control, one entry each: what libFuzzer feeds, and what the
/// replay mode runs the kept inputs through. An input may be refused; it must never crash.
enum FuzzTarget: String, CaseIterable {
    /// gpsd's JSON stream through the decoder, the epoch merger and the core, as replay feeds it.
    case gpsd
    /// ATT PDUs as the bearer reads them.
    case att
    /// The GATT client state machine (strap, footpod, treadmill plans) fed arbitrary PDUs.
    case gatt
    /// Heart-rate, RSC and treadmill payloads and the SC control point's responses.
    case payloads
    /// Control socket request lines.
    case control
    /// The TOML config reader and the daemon's config.
    case config
    /// The phone link's messages, both directions, and the commands and payloads inside.
    case link
    /// What the espeak-ng program gives back: its WAV output and its list of voices.
    case speech

    func run(_ bytes: [UInt8]) {
        switch self {
        case .gpsd: Self.gpsd(bytes)
        case .att: _ = try? ATTPDU(decoding: bytes)
        case .gatt: Self.gatt(bytes)
        case .payloads: Self.payloads(bytes)
        case .control: _ = ControlCodec.decodeRequest(bytes)
        case .config: Self.config(bytes)
        case .link: Self.link(bytes)
        case .speech:
            _ = try? PCM(wav: bytes)
            _ = SpeechSynthesizer.voices(in: String(decoding: bytes, as: UTF8.self))
        }
    }

    private static let quiet = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }

    private static func gpsd(_ bytes: [UInt8]) {
        var replayer = StreamReplayer(name: "fuzz", session: TrackSession(activity: .running), logger: quiet)
        replayer.consume(bytes)
        _ = replayer.finish()
    }

    /// The first byte picks the plan; the rest is split into PDUs by one-byte lengths, each
    /// received in turn after the client starts, with a tick between.
    private static func gatt(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        var pdus: [[UInt8]] = []
        var index = 1
        while index < bytes.count {
            let count = Int(bytes[index])
            index += 1
            pdus.append(Array(bytes[index..<min(bytes.count, index + count)]))
            index += count
        }
        var now = 0.0
        if selector % 3 == 0 {
            var client = HeartRateClient()
            _ = client.start(now: now)
            for pdu in pdus {
                now += 0.1
                _ = client.receive(pdu, now: now)
                _ = client.tick(now: now)
            }
        } else {
            let kind: SpeedSensorKind = selector % 3 == 1 ? .footpod : .treadmill
            var client = GATTClient(plan: kind.plan)
            _ = client.start(now: now)
            for pdu in pdus {
                now += 0.1
                for output in client.receive(pdu, now: now) {
                    switch output {
                    case .value(let uuid, let value), .read(let uuid, let value): _ = try? kind.reading(uuid, value)
                    default: break
                    }
                }
                _ = client.tick(now: now)
            }
        }
    }

    private static func payloads(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let payload = bytes.dropFirst()
        switch selector % 6 {
        case 0: _ = try? HeartRateMeasurement(payload: payload)
        case 1: _ = try? RSCMeasurement(payload: payload)
        case 2: _ = try? TreadmillData(payload: payload)
        case 3: _ = try? FitnessMachineStatus(payload: payload)
        case 4: _ = try? SCControlPoint.Response(payload: payload)
        default:
            _ = try? RSCFeature(payload: payload)
            _ = try? FitnessMachineFeature(payload: payload)
        }
    }

    private static func config(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        _ = try? ConfigParser(path: "fuzz.toml").parse(text)
    }

    private static func link(_ bytes: [UInt8]) {
        if let message = try? Wearbridge_Link_V1_PhoneMessage(serializedBytes: bytes) {
            if case .command(let command)? = message.body { _ = try? PhoneCommand(wire: command) }
        }
        if let message = try? Wearbridge_Link_V1_WearableMessage(serializedBytes: bytes) {
            _ = message.textFormatString()
        }
        if let payload = try? Wearbridge_Link_V1_Payload(serializedBytes: bytes) {
            _ = payload.textFormatString()
        }
    }
}
