import CertificateFingerprint
import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import PhoneCore
import PhoneLinkContract
import PhoneLinkDelivery
import SwiftProtobuf
import X509

/// The phone's side of `Connect`, a thin shell: who the wearable is (by its pinned certificate),
/// then its hello and every message handed to the phone's loop one at a time, the next read only
/// once the loop has answered (an envelope is committed before it is acknowledged).
struct PhoneLinkService: Wearbridge_Link_V1_PhoneLink.SimpleServiceProtocol {
    let inputs: PhoneInputs
    let wearables: [Fingerprint: String]
    let logger: Logger

    func connect(
        request: RPCAsyncSequence<Wearbridge_Link_V1_WearableMessage, any Error>,
        response: RPCWriter<Wearbridge_Link_V1_PhoneMessage>,
        context: ServerContext
    ) async throws {
        let wearable = try identify(context)
        var logger = self.logger
        logger[metadataKey: "wearable"] = "\(wearable)"
        var messages = request.makeAsyncIterator()
        guard let first = try await messages.next(), case .hello(let hello) = first.body else {
            logger.warning("refused a stream that did not begin with a hello")
            throw RPCError(code: .failedPrecondition, message: "the first message must be a hello")
        }
        let connection = inputs.connection(of: wearable)
        let outgoing: AsyncStream<Wearbridge_Link_V1_PhoneMessage>
        switch await inputs.ask(.hello(connection, hello)) {
        case .opened(let stream):
            outgoing = stream
        case .refused(.badEpoch):
            throw RPCError(
                code: .invalidArgument,
                message: "hello.outbox_epoch is required (at most \(PhoneStream.maxEpochBytes) bytes)"
            )
        case .carryOn, .end:
            inputs.send(.closed(connection))
            throw RPCError(code: .unavailable, message: "the phone cannot open the stream now")
        }
        defer { inputs.send(.closed(connection)) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // A failed write means the stream is gone: the reading loop below ends with it.
                for await message in outgoing {
                    do { try await response.write(message) } catch { return }
                }
            }
            do {
                reading: while let message = try await messages.next() {
                    switch await inputs.ask(.message(connection, message)) {
                    case .carryOn, .opened, .refused: continue
                    case .end: break reading
                    }
                }
                logger.info("wearable closed the stream")
            } catch {
                logger.notice("wearable stream ended", metadata: ["error": "\(error)"])
            }
            group.cancelAll()
        }
    }

    /// The wearable's name from its certificate (already pinned by the TLS handshake).
    private func identify(_ context: ServerContext) throws -> String {
        guard let posix = context.transportSpecific as? HTTP2ServerTransport.Posix.Context,
            let certificate = posix.peerCertificate,
            let der = try? certificate.serializeAsPEM().derBytes,
            let name = wearables[Fingerprint(der: der)]
        else {
            logger.warning(
                "refused a stream without a pinned client certificate",
                metadata: ["peer": "\(context.remotePeer)"]
            )
            throw RPCError(code: .unauthenticated, message: "no pinned client certificate")
        }
        return name
    }
}

extension Wearbridge_Link_V1_Snapshot {
    /// What makes a snapshot impossible, if anything: no runner covers 100 km in a minute.
    var impossibility: String? {
        if !session.isEmpty, session.count != 16 { return "session id of \(session.count) bytes, not 16" }
        if movingS > elapsedS { return "moving time \(movingS) s over elapsed \(elapsedS) s" }
        if elapsedS > 7 * 86_400 { return "elapsed \(elapsedS) s" }
        if heartRate > 250 { return "heart rate \(heartRate) bpm" }
        if zone > 10 { return "zone \(zone)" }
        if elapsedS > 0, Double(distanceDm) / 10 / Double(elapsedS) > 100 { return "faster than 100 m/s on average" }
        if elapsedS == 0, distanceDm > 10_000 { return "\(distanceDm / 10) m in no time" }
        if case .UNRECOGNIZED(let value) = state { return "unknown state \(value)" }
        return nil
    }
}
