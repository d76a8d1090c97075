import ATT
import CBluetooth

#if canImport(Glibc)
import Glibc
#endif

/// Opens the kernel's L2CAP LE socket on the ATT fixed channel (CID 4) to a strap.
///
/// No bluetoothd involved: the kernel makes the LE connection itself (it may run beside us).
public struct L2CAPConnector: Sendable {
    /// The adapter, e.g. "hci0".
    public var adapter: String
    /// How long one connection attempt may wait for the strap to show up (s).
    public var connectTimeout: Double

    public init(adapter: String = "hci0", connectTimeout: Double = 30) {
        self.adapter = adapter
        self.connectTimeout = connectTimeout
    }

    /// Connects, polling `shouldStop` every 200 ms so a shutdown does not wait out the attempt.
    public func connect(to peer: BluetoothAddress, shouldStop: () -> Bool) throws(BluetoothError) -> ATTBearer {
        let local = try HCIAdapter(name: adapter).address()
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_L2CAP)
        guard fd >= 0 else { throw .system("socket(AF_BLUETOOTH, L2CAP)", errno: errno) }
        let bearer = ATTBearer(descriptor: fd)
        // Bind to the adapter on CID 4 as LE public, or connect() answers EINVAL.
        var source = Self.address(local, kind: BDADDR_LE_PUBLIC)
        guard withUnsafePointer(to: &source, { bindAddress(fd, $0) }) == 0 else {
            throw .system("bind(\(adapter), ATT CID 4)", errno: errno)
        }
        var security = bt_security(level: UInt8(BT_SECURITY_LOW), key_size: 0)
        guard setsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &security, socklen_t(MemoryLayout<bt_security>.size)) == 0
        else {
            throw .system("setsockopt(BT_SECURITY)", errno: errno)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var target = Self.address(peer, kind: peer.kind == .random ? BDADDR_LE_RANDOM : BDADDR_LE_PUBLIC)
        let started = withUnsafePointer(to: &target) { connectAddress(fd, $0) }
        if started != 0 && errno == EBUSY {
            throw .held("the kernel gives \(peer)'s ATT channel to another program's socket (EBUSY)")
        }
        if started != 0 && errno != EINPROGRESS { throw .system("connect(\(peer))", errno: errno) }
        var waited = 0.0
        while started != 0 {
            if shouldStop() { throw .cancelled }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready > 0 { break }
            if ready < 0 && errno != EINTR { throw .system("poll(connect)", errno: errno) }
            waited += 0.2
            if waited >= connectTimeout { throw .timedOut("no connection to \(peer) within \(Int(connectTimeout)) s") }
        }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
        // The kernel gives an LE link's ATT channel to one socket: another program has it.
        if failure == EBUSY {
            throw .held("the kernel gives \(peer)'s ATT channel to another program's socket (EBUSY)")
        }
        guard failure == 0 else { throw .system("connect(\(peer))", errno: failure) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return bearer
    }

    static func address(_ address: BluetoothAddress, kind: Int32) -> sockaddr_l2 {
        var result = sockaddr_l2()
        result.l2_family = sa_family_t(AF_BLUETOOTH)
        result.l2_bdaddr = bdaddr_t(littleEndian: address.littleEndian)
        result.l2_cid = UInt16(4).littleEndian
        result.l2_bdaddr_type = UInt8(kind)
        return result
    }
}

private func bindAddress(_ fd: Int32, _ address: UnsafePointer<sockaddr_l2>) -> Int32 {
    address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size))
    }
}

private func connectAddress(_ fd: Int32, _ address: UnsafePointer<sockaddr_l2>) -> Int32 {
    address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size))
    }
}

extension bdaddr_t {
    init(littleEndian bytes: [UInt8]) {
        self.init(b: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]))
    }

    var littleEndian: [UInt8] { [b.0, b.1, b.2, b.3, b.4, b.5] }
}
