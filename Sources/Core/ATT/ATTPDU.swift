/// The ATT PDUs a GATT client sends and receives (Core Spec Vol 3 Part F), as values.
///
/// Decoding never traps: a PDU that is too short or inconsistent for its opcode is an
/// `ATTDecodeError` naming the opcode and what was wrong.
public enum ATTPDU: Sendable, Equatable {
    case errorResponse(request: UInt8, handle: UInt16, code: UInt8)
    case exchangeMTURequest(mtu: UInt16)
    case exchangeMTUResponse(mtu: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    case findInformationResponse([(handle: UInt16, uuid: BluetoothUUID)])
    case readByTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByTypeResponse([(handle: UInt16, value: [UInt8])])
    case readRequest(handle: UInt16)
    case readResponse([UInt8])
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByGroupTypeResponse([(handle: UInt16, end: UInt16, value: [UInt8])])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case notification(handle: UInt16, value: [UInt8])
    case indication(handle: UInt16, value: [UInt8])
    case confirmation
    /// Anything else (the server's own requests, signed writes...): kept by opcode.
    case other(opcode: UInt8, parameters: [UInt8])

    /// ATT error codes the client acts on.
    public static let attributeNotFound: UInt8 = 0x0A
    public static let requestNotSupported: UInt8 = 0x06

    public static func == (lhs: ATTPDU, rhs: ATTPDU) -> Bool { lhs.encoded == rhs.encoded }

    public var encoded: [UInt8] {
        switch self {
        case .errorResponse(let request, let handle, let code): [0x01, request] + le(handle) + [code]
        case .exchangeMTURequest(let mtu): [0x02] + le(mtu)
        case .exchangeMTUResponse(let mtu): [0x03] + le(mtu)
        case .findInformationRequest(let start, let end): [0x04] + le(start) + le(end)
        case .findInformationResponse(let entries):
            [0x05, entries.first.map { $0.uuid.bytes.count == 2 ? 1 : 2 } ?? 1]
                + entries.flatMap { le($0.handle) + $0.uuid.bytes }
        case .readByTypeRequest(let start, let end, let type): [0x08] + le(start) + le(end) + type.bytes
        case .readByTypeResponse(let entries):
            [0x09, UInt8(2 + (entries.first?.value.count ?? 0))] + entries.flatMap { le($0.handle) + $0.value }
        case .readRequest(let handle): [0x0A] + le(handle)
        case .readResponse(let value): [0x0B] + value
        case .readByGroupTypeRequest(let start, let end, let type): [0x10] + le(start) + le(end) + type.bytes
        case .readByGroupTypeResponse(let entries):
            [0x11, UInt8(4 + (entries.first?.value.count ?? 0))]
                + entries.flatMap { le($0.handle) + le($0.end) + $0.value }
        case .writeRequest(let handle, let value): [0x12] + le(handle) + value
        case .writeResponse: [0x13]
        case .notification(let handle, let value): [0x1B] + le(handle) + value
        case .indication(let handle, let value): [0x1D] + le(handle) + value
        case .confirmation: [0x1E]
        case .other(let opcode, let parameters): [opcode] + parameters
        }
    }

    public init(decoding pdu: [UInt8]) throws(ATTDecodeError) {
        guard let opcode = pdu.first else { throw ATTDecodeError(opcode: nil, reason: "empty PDU") }
        let p = Array(pdu.dropFirst())
        func need(_ count: Int, _ what: String) throws(ATTDecodeError) {
            guard p.count >= count else {
                throw ATTDecodeError(opcode: opcode, reason: "\(what): needs \(count) parameter bytes, has \(p.count)")
            }
        }
        func u16(_ at: Int) -> UInt16 { UInt16(p[at]) | UInt16(p[at + 1]) << 8 }
        switch opcode {
        case 0x01:
            try need(4, "error response")
            self = .errorResponse(request: p[0], handle: u16(1), code: p[3])
        case 0x03:
            try need(2, "MTU response")
            self = .exchangeMTUResponse(mtu: u16(0))
        case 0x05:
            try need(1, "find information response")
            let width = p[0] == 1 ? 2 : p[0] == 2 ? 16 : 0
            guard width > 0 else { throw ATTDecodeError(opcode: opcode, reason: "unknown UUID format \(p[0])") }
            self = .findInformationResponse(
                try Self.records(p.dropFirst(), size: 2 + width, opcode: opcode).map {
                    (handle: UInt16($0[0]) | UInt16($0[1]) << 8, uuid: BluetoothUUID(bytes: $0[2...])!)
                }
            )
        case 0x09:
            try need(1, "read by type response")
            guard p[0] >= 2 else { throw ATTDecodeError(opcode: opcode, reason: "record length \(p[0]) below 2") }
            self = .readByTypeResponse(
                try Self.records(p.dropFirst(), size: Int(p[0]), opcode: opcode).map {
                    (handle: UInt16($0[0]) | UInt16($0[1]) << 8, value: Array($0[2...]))
                }
            )
        case 0x0B:
            self = .readResponse(p)
        case 0x11:
            try need(1, "read by group type response")
            guard p[0] >= 4 else { throw ATTDecodeError(opcode: opcode, reason: "record length \(p[0]) below 4") }
            self = .readByGroupTypeResponse(
                try Self.records(p.dropFirst(), size: Int(p[0]), opcode: opcode).map {
                    (
                        handle: UInt16($0[0]) | UInt16($0[1]) << 8, end: UInt16($0[2]) | UInt16($0[3]) << 8,
                        value: Array($0[4...])
                    )
                }
            )
        case 0x13:
            self = .writeResponse
        case 0x1B:
            try need(2, "notification")
            self = .notification(handle: u16(0), value: Array(p[2...]))
        case 0x1D:
            try need(2, "indication")
            self = .indication(handle: u16(0), value: Array(p[2...]))
        default:
            self = .other(opcode: opcode, parameters: p)
        }
    }

    /// Fixed-size records filling the rest of a PDU exactly.
    private static func records(_ data: ArraySlice<UInt8>, size: Int, opcode: UInt8) throws(ATTDecodeError) -> [[UInt8]]
    {
        let data = Array(data)
        guard !data.isEmpty, data.count.isMultiple(of: size) else {
            throw ATTDecodeError(
                opcode: opcode,
                reason: "\(data.count) bytes of records are not a whole number of \(size)-byte records"
            )
        }
        return stride(from: 0, to: data.count, by: size).map { Array(data[$0..<($0 + size)]) }
    }
}

private func le(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

/// A PDU that cannot be what its opcode says.
public struct ATTDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var opcode: UInt8?
    public var reason: String

    public var description: String {
        guard let opcode else { return reason }
        let hex = String(opcode, radix: 16)
        return "ATT opcode 0x\(hex.count == 1 ? "0" : "")\(hex): \(reason)"
    }
}
