import Engine
import Gait
import IIO
import ProcessClock

/// The accelerometer's samples into the engine: the device found among the IIO devices (by name or
/// path, or the first with an accelerometer's buffered channels), its buffer started at `rate`
/// and drained four times a second (the kernel holds two seconds; the pedometer reads once a
/// second); looked for again every 10 s while there is none, it could not be set up, or it has gone.
struct IMUProducer: EngineProducer {
    let role = EngineProducerRole.source
    let name = "imu"
    /// Nil: the first found.
    let choice: String?
    let rate: Double
    var root = IIODevice.root
    var nodes = "/dev"
    /// A buffer that gives nothing for this long (s) has lost its trigger: set up again.
    static let stalledAfter = 3.0

    func run(into inbox: EngineInbox) async {
        var said: String?
        while !Task.isCancelled {
            let accelerometer: IIOAccelerometer
            do {
                guard let device = IIOAccelerometer.find(choice, root: root) else {
                    let which =
                        choice.map { "no IIO accelerometer \($0)" } ?? "no IIO device with accelerometer channels"
                    throw IMUAbsence.notFound("\(which) under \(root)")
                }
                accelerometer = try IIOAccelerometer(device, rate: rate, root: root, nodes: nodes)
            } catch {
                let reason = "\(error)"
                // Said once until it changes: the next look every 10 s is quiet.
                if said != reason { inbox.send(.imu(.absent(reason: reason))) }
                said = reason
                do { try await Task.sleep(for: .seconds(10)) } catch { return }
                continue
            }
            said = nil
            inbox.send(
                .imu(
                    .found(
                        name: accelerometer.device.name,
                        device: accelerometer.device.path,
                        trigger: accelerometer.trigger,
                        rate: accelerometer.rate
                    )
                )
            )
            var lastData = MonotonicClock.now()
            while !Task.isCancelled {
                do {
                    let samples = try accelerometer.read()
                    let now = MonotonicClock.now()
                    if samples.isEmpty {
                        if now - lastData > Self.stalledAfter {
                            inbox.send(
                                .imu(
                                    .absent(
                                        reason:
                                            "\(accelerometer.device.path) gave no scan for \(Int(Self.stalledAfter)) s"
                                    )
                                )
                            )
                            break
                        }
                    } else {
                        lastData = now
                        inbox.send(
                            .imu(.samples(samples.map { AccelerationSample(time: $0.time, x: $0.x, y: $0.y, z: $0.z) }))
                        )
                    }
                } catch {
                    inbox.send(.imu(.unreadable(reason: error.description, receivedAt: MonotonicClock.now())))
                    inbox.send(.imu(.absent(reason: "\(accelerometer.device.path): \(error.description)")))
                    break
                }
                do { try await Task.sleep(for: .milliseconds(250)) } catch {
                    accelerometer.close()
                    return
                }
            }
            accelerometer.close()
            do { try await Task.sleep(for: .seconds(1)) } catch { return }
        }
    }
}

/// Why there is no accelerometer to read.
enum IMUAbsence: Error, CustomStringConvertible {
    case notFound(String)
    var description: String {
        switch self {
        case .notFound(let why): why
        }
    }
}
