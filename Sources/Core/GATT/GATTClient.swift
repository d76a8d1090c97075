import ATT

/// The GATT client for one connection to a sensor, as a pure state machine driven by a `GATTPlan`.
///
/// PDUs and the time in, PDUs to send and what the peer said out: the bearer (a socket in the
/// daemon, a socketpair in tests) only moves bytes. One request is outstanding at a time, as ATT
/// requires; a request unanswered for `requestTimeout` ends the bearer (Core Spec Vol 3 Part F 3.3.3:
/// no further ATT on it), so the machine fails and the link is dropped and made again.
public struct GATTClient: Sendable {
    public enum Output: Sendable, Equatable {
        /// Write these bytes to the bearer as one PDU.
        case send([UInt8])
        /// Every planned subscription is on: values will flow.
        case subscribed(GATTLayout)
        /// A notified or indicated value of a subscribed characteristic (not yet parsed).
        case value(BluetoothUUID, [UInt8])
        /// The answer to a planned or requested read.
        case read(BluetoothUUID, [UInt8])
        /// A PDU the client could not use (garbage, unexpected, a refused read): counted, logged.
        case ignored(String)
        /// The connection cannot go on: drop the link.
        case failed(String)
    }

    public let plan: GATTPlan
    public var requestedMTU: UInt16
    public var requestTimeout: Double
    public private(set) var layout = GATTLayout()
    public private(set) var isSubscribed = false
    public private(set) var isFailed = false

    private enum Step: Sendable, Equatable, CustomStringConvertible {
        case exchangeMTU
        case services(from: UInt16)
        case characteristics(service: Int, from: UInt16)
        case descriptors(subscription: Int, from: UInt16, to: UInt16)
        case writeCCCD(subscription: Int, cccd: UInt16)
        case read(BluetoothUUID, handle: UInt16)

        var description: String {
            switch self {
            case .exchangeMTU: "exchangeMTU"
            case .services: "services"
            case .characteristics: "characteristics"
            case .descriptors: "descriptors"
            case .writeCCCD: "writeCCCD"
            case .read(let uuid, _): "read of \(uuid.spelled)"
            }
        }
    }

    /// A planned subscription found on the peer, with the handle range its CCCD must lie in.
    private struct Subscription: Sendable {
        var characteristic: GATTCharacteristic
        var wanted: GATTPlan.Wanted
        var descriptorEnd: UInt16
    }

    /// Handle ranges of the planned services found, by their index in the plan.
    private var ranges: [Int: ClosedRange<UInt16>] = [:]
    private var subscriptions: [Subscription] = []
    /// The outstanding request: what it was for, its opcode and when it times out.
    private var pending: (step: Step, opcode: UInt8, deadline: Double)?
    /// Reads to make once subscribed, in order.
    private var followUps: [Step] = []

    public init(plan: GATTPlan, requestedMTU: UInt16 = 185, requestTimeout: Double = 30) {
        self.plan = plan
        self.requestedMTU = requestedMTU
        self.requestTimeout = requestTimeout
    }

    // MARK: Inputs

    /// The bearer is up: begin with the MTU exchange.
    public mutating func start(now: Double) -> [Output] {
        request(.exchangeMTU, .exchangeMTURequest(mtu: requestedMTU), now: now)
    }

    /// One PDU from the peer.
    public mutating func receive(_ bytes: [UInt8], now: Double) -> [Output] {
        guard !isFailed else { return [] }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(decoding: bytes)
        } catch {
            return [.ignored("malformed PDU \(hex(bytes)): \(error)")]
        }
        switch pdu {
        case .notification(let handle, let value):
            return notified(handle: handle, value: value)
        case .indication(let handle, let value):
            return [.send(ATTPDU.confirmation.encoded)] + notified(handle: handle, value: value)
        case .other(0x02, let parameters) where parameters.count >= 2:
            // The peer's own MTU exchange: answer with ours; the agreed MTU is the smaller.
            let theirs = UInt16(parameters[0]) | UInt16(parameters[1]) << 8
            layout.mtu = max(23, min(requestedMTU, theirs))
            return [.send(ATTPDU.exchangeMTUResponse(mtu: requestedMTU).encoded)]
        case .other(let opcode, _) where opcode & 0x01 == 0 && opcode & 0x40 == 0:
            // Any other request from the server: a client-only implementation does not support it.
            return [.send(ATTPDU.errorResponse(request: opcode, handle: 0, code: ATTPDU.requestNotSupported).encoded)]
        case .other(let opcode, _):
            return [.ignored("unexpected ATT opcode 0x\(hex([opcode])) (\(bytes.count) bytes)")]
        default:
            return response(pdu, raw: bytes, now: now)
        }
    }

    /// The passage of time: an outstanding request past its deadline ends the connection.
    public mutating func tick(now: Double) -> [Output] {
        guard !isFailed, let pending, now >= pending.deadline else { return [] }
        return fail("ATT request 0x\(hex([pending.opcode])) unanswered for \(formatSeconds(requestTimeout)) s")
    }

    /// Reads a characteristic again (a battery level straps rarely notify); queued behind a busy
    /// request, once; nothing before the subscriptions are on or when the peer has no such value.
    public mutating func read(_ uuid: BluetoothUUID, now: Double) -> [Output] {
        guard isSubscribed, !isFailed, let found = layout.characteristic(uuid), found.canRead else { return [] }
        let step = Step.read(uuid, handle: found.valueHandle)
        guard pending == nil else {
            if !followUps.contains(step) { followUps.append(step) }
            return []
        }
        return request(step, .readRequest(handle: found.valueHandle), now: now)
    }

    // MARK: Steps

    private func notified(handle: UInt16, value: [UInt8]) -> [Output] {
        guard layout.subscribed[handle] != nil, let uuid = layout.uuid(ofValue: handle) else {
            return [.ignored("value for handle 0x\(hex16(handle)), not a subscribed characteristic")]
        }
        return [.value(uuid, value)]
    }

    private mutating func response(_ pdu: ATTPDU, raw: [UInt8], now: Double) -> [Output] {
        guard let current = pending else {
            return [.ignored("response \(hex(raw)) with no request outstanding")]
        }
        if case .errorResponse(let request, let handle, let code) = pdu {
            guard request == current.opcode else {
                return [.ignored("error response for request 0x\(hex([request])), expected 0x\(hex([current.opcode]))")]
            }
            pending = nil
            return refused(current.step, handle: handle, code: code, now: now)
        }
        guard raw[0] == current.opcode + 1 else {
            return [.ignored("response 0x\(hex([raw[0]])) to request 0x\(hex([current.opcode]))")]
        }
        pending = nil
        switch (current.step, pdu) {
        case (.exchangeMTU, .exchangeMTUResponse(let theirs)):
            layout.mtu = max(23, min(requestedMTU, theirs))
            return discoverServices(from: 1, now: now)
        case (.services(let from), .readByGroupTypeResponse(let entries)):
            return services(entries, from: from, now: now)
        case (.characteristics(let service, _), .readByTypeResponse(let entries)):
            return characteristicsFound(entries, in: service, now: now)
        case (.descriptors(let index, _, let to), .findInformationResponse(let entries)):
            if let found = entries.first(where: { $0.uuid == .clientCharacteristicConfiguration }) {
                return subscribe(index, cccd: found.handle, now: now)
            }
            guard let last = entries.map(\.handle).max(), last < to else { return noCCCD(index, now: now) }
            return request(
                .descriptors(subscription: index, from: last + 1, to: to),
                .findInformationRequest(start: last + 1, end: to),
                now: now
            )
        case (.writeCCCD(let index, let cccd), .writeResponse):
            layout.subscribed[subscriptions[index].characteristic.valueHandle] = cccd
            return nextSubscription(after: index, now: now)
        case (.read(let uuid, _), .readResponse(let value)):
            return [.read(uuid, value)] + nextFollowUp(now: now)
        default:
            return fail("response \(hex(raw)) does not fit the request it answers")
        }
    }

    /// An error response: the end of a discovery range, a refused read, or the end of the line.
    private mutating func refused(_ step: Step, handle: UInt16, code: UInt8, now: Double) -> [Output] {
        let notFound = code == ATTPDU.attributeNotFound
        switch step {
        case .exchangeMTU:
            // Servers without MTU exchange answer "request not supported": carry on at 23.
            return discoverServices(from: 1, now: now)
        case .services where notFound:
            return servicesDone(now: now)
        case .characteristics(let service, _) where notFound:
            return characteristicsDone(after: service, now: now)
        case .descriptors(let index, _, _) where notFound:
            return noCCCD(index, now: now)
        case .read:
            return [.ignored("read of 0x\(hex16(handle)) refused (ATT error 0x\(hex([code])))")]
                + nextFollowUp(now: now)
        default:
            return fail("\(plan.peer) refused \(step) at handle 0x\(hex16(handle)) with ATT error 0x\(hex([code]))")
        }
    }

    private mutating func discoverServices(from start: UInt16, now: Double) -> [Output] {
        request(
            .services(from: start),
            .readByGroupTypeRequest(start: start, end: 0xFFFF, type: .primaryService),
            now: now
        )
    }

    private mutating func services(
        _ entries: [(handle: UInt16, end: UInt16, value: [UInt8])],
        from: UInt16,
        now: Double
    ) -> [Output] {
        guard let last = entries.last else { return servicesDone(now: now) }
        for entry in entries {
            guard entry.handle >= from, entry.end >= entry.handle else {
                return fail("service range 0x\(hex16(entry.handle))-0x\(hex16(entry.end)) out of order")
            }
            if let uuid = BluetoothUUID(bytes: entry.value),
                let index = plan.services.firstIndex(where: { $0.uuid == uuid }), ranges[index] == nil
            {
                ranges[index] = entry.handle...entry.end
            }
        }
        guard last.end < 0xFFFF else { return servicesDone(now: now) }
        return discoverServices(from: last.end + 1, now: now)
    }

    private mutating func servicesDone(now: Double) -> [Output] {
        for (index, service) in plan.services.enumerated() where service.required && ranges[index] == nil {
            return fail("no \(service.name) service (\(service.uuid.spelled)) on this device")
        }
        return characteristicsDone(after: -1, now: now)
    }

    private mutating func discoverCharacteristics(in service: Int, from start: UInt16, now: Double) -> [Output] {
        request(
            .characteristics(service: service, from: start),
            .readByTypeRequest(start: start, end: ranges[service]!.upperBound, type: .characteristic),
            now: now
        )
    }

    private mutating func characteristicsFound(
        _ entries: [(handle: UInt16, value: [UInt8])],
        in service: Int,
        now: Double
    ) -> [Output] {
        let range = ranges[service]!
        var last: UInt16 = 0
        for entry in entries {
            guard let found = GATTCharacteristic(declaration: entry.handle, value: entry.value),
                range.contains(entry.handle),
                entry.handle > last
            else { return fail("characteristic declaration at 0x\(hex16(entry.handle)) is malformed or out of range") }
            last = entry.handle
            if !layout.characteristics.contains(where: { $0.declaration == found.declaration }) {
                layout.characteristics.append(found)
            }
        }
        guard last < range.upperBound else { return characteristicsDone(after: service, now: now) }
        return discoverCharacteristics(in: service, from: last + 1, now: now)
    }

    /// The next planned service found gets its characteristics discovered; after the last, the
    /// subscriptions are chosen and made.
    private mutating func characteristicsDone(after service: Int, now: Double) -> [Output] {
        if let next = plan.services.indices.first(where: { $0 > service && ranges[$0] != nil }) {
            return discoverCharacteristics(in: next, from: ranges[next]!.lowerBound, now: now)
        }
        for (index, service) in plan.services.enumerated() {
            guard let range = ranges[index] else { continue }
            let inService = layout.characteristics.filter { range.contains($0.declaration) }
            for wanted in service.subscribe {
                guard let found = inService.first(where: { $0.uuid == wanted.uuid }) else {
                    if wanted.required {
                        return fail("no \(wanted.name) (\(wanted.uuid.spelled)) in the \(service.name) service")
                    }
                    continue
                }
                guard found.canNotify || found.canIndicate else {
                    if wanted.required { return fail("\(wanted.uuid.spelled) neither notifies nor indicates") }
                    continue
                }
                let next = inService.map(\.declaration).filter { $0 > found.declaration }.min()
                let end = next.map { $0 - 1 } ?? range.upperBound
                guard found.valueHandle < end else {
                    if wanted.required { return fail("no room for a CCCD after \(wanted.uuid.spelled)'s value") }
                    continue
                }
                subscriptions.append(Subscription(characteristic: found, wanted: wanted, descriptorEnd: end))
            }
            for uuid in service.read {
                if let found = inService.first(where: { $0.uuid == uuid && $0.canRead }) {
                    followUps.append(.read(uuid, handle: found.valueHandle))
                }
            }
        }
        return nextSubscription(after: -1, now: now)
    }

    private mutating func nextSubscription(after index: Int, now: Double) -> [Output] {
        let next = index + 1
        guard next < subscriptions.count else {
            isSubscribed = true
            return [.subscribed(layout)] + nextFollowUp(now: now)
        }
        let found = subscriptions[next]
        return request(
            .descriptors(subscription: next, from: found.characteristic.valueHandle + 1, to: found.descriptorEnd),
            .findInformationRequest(start: found.characteristic.valueHandle + 1, end: found.descriptorEnd),
            now: now
        )
    }

    private mutating func subscribe(_ index: Int, cccd: UInt16, now: Double) -> [Output] {
        let found = subscriptions[index].characteristic
        // Notifications when offered (no confirmation round trip per value), else indications.
        let value: [UInt8] = found.canNotify ? [0x01, 0x00] : [0x02, 0x00]
        return request(.writeCCCD(subscription: index, cccd: cccd), .writeRequest(handle: cccd, value: value), now: now)
    }

    private mutating func noCCCD(_ index: Int, now: Double) -> [Output] {
        let wanted = subscriptions[index].wanted
        guard wanted.required else { return nextSubscription(after: index, now: now) }
        return fail("no CCCD (0x2902) for \(wanted.uuid.spelled)")
    }

    private mutating func nextFollowUp(now: Double) -> [Output] {
        guard !followUps.isEmpty else { return [] }
        let step = followUps.removeFirst()
        guard case .read(_, let handle) = step else { return [] }
        return request(step, .readRequest(handle: handle), now: now)
    }

    private mutating func request(_ step: Step, _ pdu: ATTPDU, now: Double) -> [Output] {
        let bytes = pdu.encoded
        pending = (step, bytes[0], now + requestTimeout)
        return [.send(bytes)]
    }

    private mutating func fail(_ reason: String) -> [Output] {
        isFailed = true
        pending = nil
        return [.failed(reason)]
    }
}
