/// One buffered scan's layout: the enabled channels in the order of their scan index, each at an
/// offset aligned to its own storage size, the whole padded to its largest (the IIO ABI,
/// `Documentation/driver-api/iio/buffers.rst`).
public struct IIOScanLayout: Sendable, Equatable {
    public struct Element: Sendable, Equatable {
        public var name: String
        public var index: Int
        public var type: IIOChannelType
        public var offset: Int
    }

    public private(set) var elements: [Element] = []
    /// Bytes one scan takes in what the device node gives.
    public private(set) var size = 0

    /// The enabled channels: names (`accel_x`, `timestamp`), scan indices and types, in any order.
    public init(_ channels: [(name: String, index: Int, type: IIOChannelType)]) {
        var offset = 0
        var widest = 1
        for channel in channels.sorted(by: { $0.index < $1.index }) {
            let width = channel.type.storageBytes
            offset = (offset + width - 1) / width * width
            elements.append(Element(name: channel.name, index: channel.index, type: channel.type, offset: offset))
            offset += width * channel.type.repeats
            widest = max(widest, width)
        }
        size = (offset + widest - 1) / widest * widest
    }

    public func element(_ name: String) -> Element? { elements.first { $0.name == name } }

    /// The channel's value in the scan that starts at `start` of `bytes`.
    public func value(_ element: Element, in bytes: [UInt8], scanAt start: Int) -> Int64 {
        element.type.value(in: bytes, at: start + element.offset)
    }
}
