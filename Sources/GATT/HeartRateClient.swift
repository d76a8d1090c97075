import ATT
import HeartRate
import HexCoding

/// The GATT client for one connection to a heart-rate strap, as a pure state machine.
///
/// PDUs and the time in, PDUs to send and what the strap said out: the bearer (a socket in the
/// daemon, a socketpair in tests) only moves bytes. One request is outstanding at a time, as ATT
/// requires; a request unanswered for `requestTimeout` ends the bearer (Core Spec Vol 3 Part F 3.3.3:
/// no further ATT on it), so the machine fails and the link is dropped and made again.
public struct HeartRateClient: Sendable {
    public enum Output: Sendable, Equatable {
        /// Write these bytes to the bearer as one PDU.
        case send([UInt8])
        /// Notifications are enabled: beats will flow.
        case subscribed(HeartRateProfile)
        /// The value of a Heart Rate Measurement notification or indication (not yet parsed).
        case measurement([UInt8])
        case batteryLevel(Int)
        case bodySensorLocation(UInt8)
        /// A PDU the client could not use (garbage, unexpected, a refused optional read): counted, logged.
        case ignored(String)
        /// The connection cannot go on: drop the link.
        case failed(String)
    }

    public var requestedMTU: UInt16
    public var requestTimeout: Double
    public private(set) var profile: HeartRateProfile?
    public private(set) var isSubscribed = false
    public private(set) var isFailed = false

    private enum Step: Sendable, Equatable {
        case exchangeMTU
        case services(from: UInt16)
        case characteristics(service: ServiceKind, from: UInt16)
        case descriptors(from: UInt16, to: UInt16)
        case writeCCCD
        case readLocation
        case readBattery
    }

    private enum ServiceKind: Sendable, Equatable { case heartRate, battery }

    private var mtu: UInt16 = 23
    private var heartRateRange: ClosedRange<UInt16>?
    private var batteryRange: ClosedRange<UInt16>?
    private var characteristics: [GATTCharacteristic] = []
    private var batteryLevelHandle: UInt16?
    private var cccd: UInt16?
    /// The outstanding request: what it was for, its opcode and when it times out.
    private var pending: (step: Step, opcode: UInt8, deadline: Double)?
    /// Reads to make once subscribed, in order.
    private var followUps: [Step] = []

    public init(requestedMTU: UInt16 = 185, requestTimeout: Double = 30) {
        self.requestedMTU = requestedMTU
        self.requestTimeout = requestTimeout
    }

    // MARK: Inputs

    /// The bearer is up: begin with the MTU exchange.
    public mutating func start(now: Double) -> [Output] {
        request(.exchangeMTU, .exchangeMTURequest(mtu: requestedMTU), now: now)
    }

    /// One PDU from the strap.
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
            return measurement(handle: handle, value: value)
        case .indication(let handle, let value):
            return [.send(ATTPDU.confirmation.encoded)] + measurement(handle: handle, value: value)
        case .other(0x02, let parameters) where parameters.count >= 2:
            // The strap's own MTU exchange: answer with ours; the agreed MTU is the smaller.
            let theirs = UInt16(parameters[0]) | UInt16(parameters[1]) << 8
            mtu = max(23, min(requestedMTU, theirs))
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

    /// Re-reads the battery level (straps rarely notify it); nothing when busy or unknown.
    public mutating func refreshBattery(now: Double) -> [Output] {
        guard isSubscribed, !isFailed, let handle = batteryLevelHandle else { return [] }
        guard pending == nil else {
            if !followUps.contains(.readBattery) { followUps.append(.readBattery) }
            return []
        }
        return request(.readBattery, .readRequest(handle: handle), now: now)
    }

    // MARK: Steps

    private mutating func measurement(handle: UInt16, value: [UInt8]) -> [Output] {
        guard let profile, handle == profile.measurementHandle else {
            return [.ignored("value for handle 0x\(hex16(handle)), not the heart-rate measurement")]
        }
        return [.measurement(value)]
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
            mtu = max(23, min(requestedMTU, theirs))
            return discoverServices(from: 1, now: now)
        case (.services(let from), .readByGroupTypeResponse(let entries)):
            return services(entries, from: from, now: now)
        case (.characteristics(let kind, _), .readByTypeResponse(let entries)):
            return characteristicsFound(entries, in: kind, now: now)
        case (.descriptors(_, let to), .findInformationResponse(let entries)):
            if let found = entries.first(where: { $0.uuid == .clientCharacteristicConfiguration }) {
                cccd = found.handle
                return subscribe(now: now)
            }
            guard let last = entries.map(\.handle).max(), last < to else { return fail("no CCCD (0x2902) for 0x2A37") }
            return request(
                .descriptors(from: last + 1, to: to),
                .findInformationRequest(start: last + 1, end: to),
                now: now
            )
        case (.writeCCCD, .writeResponse):
            isSubscribed = true
            return [.subscribed(profile!)] + nextFollowUp(now: now)
        case (.readLocation, .readResponse(let value)):
            let out: [Output] =
                value.first.map { [.bodySensorLocation($0)] } ?? [.ignored("empty body sensor location")]
            return out + nextFollowUp(now: now)
        case (.readBattery, .readResponse(let value)):
            let out: [Output] = value.first.map { [.batteryLevel(Int($0))] } ?? [.ignored("empty battery level")]
            return out + nextFollowUp(now: now)
        default:
            return fail("response \(hex(raw)) does not fit the request it answers")
        }
    }

    /// An error response: the end of a discovery range, a refused optional read, or the end of the line.
    private mutating func refused(_ step: Step, handle: UInt16, code: UInt8, now: Double) -> [Output] {
        let notFound = code == ATTPDU.attributeNotFound
        switch step {
        case .exchangeMTU:
            // Servers without MTU exchange answer "request not supported": carry on at 23.
            return discoverServices(from: 1, now: now)
        case .services where notFound:
            return servicesDone(now: now)
        case .characteristics(let kind, _) where notFound:
            return characteristicsDone(kind, now: now)
        case .descriptors where notFound:
            return fail("no CCCD (0x2902) for 0x2A37")
        case .readLocation, .readBattery:
            return [.ignored("read of 0x\(hex16(handle)) refused (ATT error 0x\(hex([code])))")]
                + nextFollowUp(now: now)
        default:
            return fail("strap refused \(step) at handle 0x\(hex16(handle)) with ATT error 0x\(hex([code]))")
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
            switch BluetoothUUID(bytes: entry.value) {
            case HeartRateProfile.heartRateService?: heartRateRange = entry.handle...entry.end
            case HeartRateProfile.batteryService?: batteryRange = entry.handle...entry.end
            default: break
            }
        }
        guard last.end < 0xFFFF else { return servicesDone(now: now) }
        return discoverServices(from: last.end + 1, now: now)
    }

    private mutating func servicesDone(now: Double) -> [Output] {
        guard let range = heartRateRange else { return fail("no Heart Rate service (0x180D) on this device") }
        return discoverCharacteristics(.heartRate, from: range.lowerBound, now: now)
    }

    private mutating func discoverCharacteristics(_ kind: ServiceKind, from start: UInt16, now: Double) -> [Output] {
        let end = (kind == .heartRate ? heartRateRange : batteryRange)!.upperBound
        return request(
            .characteristics(service: kind, from: start),
            .readByTypeRequest(start: start, end: end, type: .characteristic),
            now: now
        )
    }

    private mutating func characteristicsFound(
        _ entries: [(handle: UInt16, value: [UInt8])],
        in kind: ServiceKind,
        now: Double
    ) -> [Output] {
        let range = (kind == .heartRate ? heartRateRange : batteryRange)!
        var last: UInt16 = 0
        for entry in entries {
            guard let found = GATTCharacteristic(declaration: entry.handle, value: entry.value),
                range.contains(entry.handle),
                entry.handle > last
            else { return fail("characteristic declaration at 0x\(hex16(entry.handle)) is malformed or out of range") }
            last = entry.handle
            if kind == .battery, found.uuid == HeartRateProfile.batteryLevel {
                batteryLevelHandle = found.valueHandle
            } else if kind == .heartRate {
                characteristics.append(found)
            }
        }
        guard last < range.upperBound else { return characteristicsDone(kind, now: now) }
        return discoverCharacteristics(kind, from: last + 1, now: now)
    }

    private mutating func characteristicsDone(_ kind: ServiceKind, now: Double) -> [Output] {
        if kind == .heartRate, let battery = batteryRange {
            return discoverCharacteristics(.battery, from: battery.lowerBound, now: now)
        }
        guard let hrm = characteristics.first(where: { $0.uuid == HeartRateProfile.heartRateMeasurement }) else {
            return fail("no Heart Rate Measurement (0x2A37) in the Heart Rate service")
        }
        guard hrm.canNotify || hrm.canIndicate else { return fail("0x2A37 neither notifies nor indicates") }
        let nextDeclaration = characteristics.map(\.declaration).filter { $0 > hrm.declaration }.min()
        let end = nextDeclaration.map { $0 - 1 } ?? heartRateRange!.upperBound
        guard hrm.valueHandle < end else { return fail("no room for a CCCD after 0x2A37's value") }
        let location = characteristics.first { $0.uuid == HeartRateProfile.bodySensorLocation && $0.canRead }
        profile = HeartRateProfile(
            measurementHandle: hrm.valueHandle,
            measurementCCCD: 0,
            bodySensorLocationHandle: location?.valueHandle,
            batteryLevelHandle: batteryLevelHandle,
            mtu: mtu
        )
        if location != nil { followUps.append(.readLocation) }
        if batteryLevelHandle != nil { followUps.append(.readBattery) }
        return request(
            .descriptors(from: hrm.valueHandle + 1, to: end),
            .findInformationRequest(start: hrm.valueHandle + 1, end: end),
            now: now
        )
    }

    private mutating func subscribe(now: Double) -> [Output] {
        guard let cccd, let hrm = characteristics.first(where: { $0.uuid == HeartRateProfile.heartRateMeasurement })
        else {
            return fail("no CCCD (0x2902) for 0x2A37")
        }
        profile?.measurementCCCD = cccd
        // Notifications when offered (no confirmation round trip per beat), else indications.
        let value: [UInt8] = hrm.canNotify ? [0x01, 0x00] : [0x02, 0x00]
        return request(.writeCCCD, .writeRequest(handle: cccd, value: value), now: now)
    }

    private mutating func nextFollowUp(now: Double) -> [Output] {
        guard !followUps.isEmpty else { return [] }
        let step = followUps.removeFirst()
        switch step {
        case .readLocation: return request(step, .readRequest(handle: profile!.bodySensorLocationHandle!), now: now)
        case .readBattery: return request(step, .readRequest(handle: batteryLevelHandle!), now: now)
        default: return []
        }
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

func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

func hex16(_ value: UInt16) -> String { Hex.encode([UInt8(value >> 8), UInt8(value & 0xFF)]) }

/// 30 -> "30", 0.5 -> "0.5": durations as people write them.
public func formatSeconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
