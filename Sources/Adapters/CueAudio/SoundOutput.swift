import Foundation

/// Where cues are heard: a sound server (PulseAudio, or PipeWire's pulse layer) as a stream with
/// a media role, so that the server ducks the music under it; or straight to an ALSA device when
/// there is no server (Raspberry Pi OS Lite has none).
///
/// Each cue is one short-lived `paplay` or `aplay`: a server that is missing, restarted or hung
/// costs that one cue (a hung one is killed at its deadline), and the next cue connects afresh.
public struct SoundOutput: Sendable {
    public enum Choice: String, Sendable, CaseIterable {
        /// The sound server when its socket is there at the cue, else ALSA.
        case auto
        case pulse
        case alsa
    }

    /// The route a cue took.
    public enum Route: String, Sendable {
        case pulse
        case alsa
    }

    public var choice: Choice
    /// `media.role` of the cue's stream: the trigger role of the server's ducking.
    public var role: String
    public var alsaDevice: String
    /// The environment the players run in (PULSE_SERVER, XDG_RUNTIME_DIR).
    public var environment: [String: String]
    /// Where a cue's WAV file waits while it plays.
    public var scratchDirectory: String
    /// Seconds a player may take beyond the cue's length before it is killed (a hung server).
    public var grace: Double

    public init(
        choice: Choice = .auto,
        role: String = "announce",
        alsaDevice: String = "default",
        environment: [String: String] = ProcessInfo.processInfo.environment,
        scratchDirectory: String = NSTemporaryDirectory(),
        grace: Double = 4
    ) {
        self.choice = choice
        self.role = role
        self.alsaDevice = alsaDevice
        self.environment = environment
        self.scratchDirectory = scratchDirectory
        self.grace = grace
    }

    /// The route a cue would take now.
    public var route: Route {
        switch choice {
        case .pulse: return .pulse
        case .alsa: return .alsa
        case .auto:
            if let server = environment["PULSE_SERVER"], !server.isEmpty { return .pulse }
            let sockets = [environment["XDG_RUNTIME_DIR"].map { "\($0)/pulse/native" }, "/run/pulse/native"]
            return sockets.compactMap { $0 }.contains { access($0, F_OK) == 0 } ? .pulse : .alsa
        }
    }

    /// What the player said of a cue it played to its end.
    public struct Played: Sendable {
        /// Times the device ran dry mid-cue (aplay's "underrun!!!" lines): heard as a stutter.
        public var underruns: Int
    }

    /// Plays `pcm` to its end; `started` is called as the player is launched. Throws when the
    /// player could not start, failed, or outlived its deadline (then it is killed).
    @discardableResult
    public func play(_ pcm: PCM, name: String, started: @Sendable () -> Void = {}) async throws(SoundError) -> Played {
        let route = self.route
        guard let scratch = ScratchFile(pcm.wav, in: scratchDirectory) else { throw .scratch(scratchDirectory) }
        let file = scratch.path
        let (tool, arguments): (String, [String])
        switch route {
        case .pulse:
            tool = "paplay"
            arguments = [
                "--client-name=wearbridge", "--stream-name=\(name)", "--property=media.role=\(role)",
                "--property=media.name=\(name)", file,
            ]
        case .alsa:
            tool = "aplay"
            arguments = ["-q", "-D", alsaDevice, file]
        }
        let said = try await PlayerProcess(tool: tool, arguments: arguments, environment: environment)
            .run(deadline: pcm.duration + grace, started: started)
        _ = consume scratch
        return Played(underruns: said.split(separator: "\n").count { $0.lowercased().contains("underrun") })
    }
}

/// Why a cue was not heard.
public enum SoundError: Error, CustomStringConvertible, Equatable {
    case scratch(String)
    case notInstalled(String)
    case failed(tool: String, status: Int32, message: String)
    case timedOut(tool: String, after: Double)
    case cancelled

    public var description: String {
        switch self {
        case .scratch(let directory): "cannot write the cue's sound file in \(directory)"
        case .notInstalled(let tool): "\(tool) is not installed (Debian: pulseaudio-utils or alsa-utils)"
        case .failed(let tool, let status, let message): "\(tool) failed (exit \(status)): \(message)"
        case .timedOut(let tool, let after):
            "\(tool) hung for \(Int(after)) s (a stuck sound server, or Bluetooth headphones gone?) and was killed"
        case .cancelled: "stopped before the cue ended"
        }
    }

    /// The short name a `cue_dropped` event stores.
    public var reason: String {
        switch self {
        case .scratch: "scratch_unwritable"
        case .notInstalled: "player_missing"
        case .failed: "output_failed"
        case .timedOut: "output_hung"
        case .cancelled: "shutdown"
        }
    }
}
