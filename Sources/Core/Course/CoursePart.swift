/// One part of a course on its way from the phone: the bytes from `index` × the phone's part size
/// of the course `courseID`'s serialized form, `totalBytes` long in all.
public struct CoursePart: Sendable, Equatable {
    public var courseID: String
    public var index: Int
    public var count: Int
    public var totalBytes: Int
    public var bytes: [UInt8]

    public init(courseID: String, index: Int, count: Int, totalBytes: Int, bytes: [UInt8]) {
        self.courseID = courseID
        self.index = index
        self.count = count
        self.totalBytes = totalBytes
        self.bytes = bytes
    }
}
