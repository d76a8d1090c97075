import Dispatch

/// Runs `body` on a thread of its own (Bluetooth sockets block); cancelling the task sets its stop
/// flag, which every blocking wait of the links checks at least once a second.
///
/// A private serial queue gets a thread at once; the global queue's pool is as wide as the cores and
/// adds a thread only when it sees its workers blocked, so a third sensor's link could wait for it.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable (StopFlag) -> T) async -> T {
    let stop = StopFlag()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "wearbridge.bluetooth.link").async { continuation.resume(returning: body(stop)) }
        }
    } onCancel: {
        stop.set()
    }
}
