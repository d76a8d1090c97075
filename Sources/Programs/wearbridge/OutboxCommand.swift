import ArgumentParser
import Foundation
import Store

/// `wearbridge outbox`: the messages for the phone, delivered or not.
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List the phone link's outbox: seq, class, kind, state, created and delivered times."
    )

    @Flag(help: "One JSON object per line.")
    var json = false

    @OptionGroup var storage: StorageOptions

    func run() throws {
        let log = try storage.open()
        let records: [OutboxRecord]
        let depth: OutboxDepth?
        do {
            records = try log.outbox()
            depth = records.isEmpty ? nil : try log.outboxDepth()
        } catch {
            StandardError.line("wearbridge: cannot read the outbox: \(error)")
            throw ExitCode(65)
        }
        for record in records {
            if json {
                let object: [String: Any] = [
                    "seq": record.seq, "class": record.messageClass.rawValue, "kind": record.kind.rawValue,
                    "state": record.state.rawValue, "created_at": record.createdAt,
                    "delivered_at": record.deliveredAt ?? NSNull(), "session": record.sessionID ?? NSNull(),
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                StandardOutput.line(String(decoding: data, as: UTF8.self))
            } else {
                StandardOutput.line(
                    "\(record.seq)\t\(record.messageClass.rawValue)\t\(record.kind.rawValue)\t\(record.state.rawValue)\t"
                        + (record.sessionID ?? "-")
                )
            }
        }
        if !json, let depth {
            StandardOutput.line(
                "\(depth.pending) not acknowledged; \(depth.noticesEvicted) notices evicted by the bound"
            )
        }
    }
}
