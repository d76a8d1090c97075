import Dispatch

/// Runs `body` on a thread of its own (Bluetooth sockets block); cancelling the task sets its stop
/// flag, which every blocking wait of the links checks at least once a second.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable (StopFlag) -> T) async -> T {
    let stop = StopFlag()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body(stop)) }
        }
    } onCancel: {
        stop.set()
    }
}
