import Foundation
import PhoneLinkContract

extension Wearbridge_Link_V1_EventRow {
    /// The course a backfilled `course_following` event names (its detail's `course`), as the
    /// wearable's data log keeps it; nil for any other event.
    public var followedCourse: String? {
        guard kind == "course_following",
            let detail = try? JSONSerialization.jsonObject(with: Data(detailJson.utf8)) as? [String: Any]
        else { return nil }
        return detail["course"] as? String
    }
}
