import CEspeakNG
import NIOPosix
import Synchronization

/// espeak-ng rendering text to PCM in this process. The library keeps global state and is not
/// thread-safe, so every call runs on one thread of its own (never a cooperative one: a cue takes
/// tens of milliseconds of CPU). It is initialized at the first cue, so a quiet daemon pays
/// nothing for it.
public final class SpeechSynthesizer: Sendable {
    private let thread: NIOThreadPool

    public init() {
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
    }

    deinit {
        thread.shutdownGracefully { _ in }
    }

    /// `rate` in words per minute (80...450); `volume` in percent of full level.
    public func render(_ text: String, voice: String, rate: Int, volume: Int) async throws -> PCM {
        let pcm = try await thread.runIfActive {
            try Engine.library.withLock { try $0.render(text, voice: voice, rate: rate) }
        }
        return pcm.scaled(percent: volume)
    }
}

/// The library's state as this process set it. espeak-ng keeps one global state per process,
/// so its one mirror here is process-wide too, behind a lock: two synthesizers (tests, `say`
/// beside the daemon's) take turns instead of corrupting each other.
private struct Engine: ~Copyable {
    static let library = Mutex(Engine())

    private var sampleRate: Int?
    private var voice: String?

    mutating func render(_ text: String, voice: String, rate: Int) throws(SpeechError) -> PCM {
        let sampleRate = try initialized()
        if self.voice != voice {
            // A voice name ("German"), else a language code as `espeak-ng -v` takes it ("en-gb");
            // the library would fall back to some voice for a language it lacks, so ask first.
            var status = espeak_ng_SetVoiceByName(voice)
            if status != ENS_OK {
                guard Self.languages().contains(voice.lowercased()) else {
                    throw .voice(voice, "no voice of that name or language (espeak-ng --voices)")
                }
                status = voice.withCString { language in
                    var selector = espeak_VOICE()
                    selector.languages = language
                    return espeak_ng_SetVoiceByProperties(&selector)
                }
            }
            guard status == ENS_OK else { throw .voice(voice, Self.message(status)) }
            self.voice = voice
        }
        _ = espeak_ng_SetParameter(espeakRATE, Int32(min(450, max(80, rate))), 0)
        let collector = SampleCollector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        var bytes = Array(text.utf8CString)
        let status = bytes.withUnsafeMutableBytes { buffer in
            espeak_ng_Synthesize(
                buffer.baseAddress,
                buffer.count,
                0,
                POS_CHARACTER,
                0,
                UInt32(espeakCHARS_UTF8),
                nil,
                context.toOpaque()
            )
        }
        guard status == ENS_OK else { throw .synthesis(Self.message(status)) }
        _ = espeak_ng_Synchronize()
        return PCM(samples: collector.samples, sampleRate: sampleRate)
    }

    private mutating func initialized() throws(SpeechError) -> Int {
        if let sampleRate { return sampleRate }
        espeak_ng_InitializePath(nil)
        var status = espeak_ng_Initialize(nil)
        guard status == ENS_OK else { throw .initialization(Self.message(status)) }
        status = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
        guard status == ENS_OK else { throw .initialization(Self.message(status)) }
        espeak_SetSynthCallback { samples, count, events in
            guard let events, let context = events.pointee.user_data else { return 0 }
            let collector = Unmanaged<SampleCollector>.fromOpaque(context).takeUnretainedValue()
            if let samples, count > 0 {
                collector.samples.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
            }
            return 0
        }
        let rate = Int(espeak_ng_GetSampleRate())
        sampleRate = rate
        return rate
    }

    /// Every language the installed voices speak ("en-gb", "de", ...).
    private static func languages() -> Set<String> {
        var found = Set<String>()
        guard var entry = espeak_ListVoices(nil) else { return found }
        while let voice = entry.pointee {
            // A list of (priority byte, NUL-terminated language) pairs, ended by a zero byte.
            if var cursor = voice.pointee.languages.map({ UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }) {
                while cursor.pointee != 0 {
                    cursor += 1
                    let language = String(cString: cursor)
                    found.insert(language.lowercased())
                    cursor += language.utf8.count + 1
                }
            }
            entry += 1
        }
        return found
    }

    private static func message(_ status: espeak_ng_STATUS) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Samples handed over by the library's callback during one synthesis.
private final class SampleCollector {
    var samples: [Int16] = []
}

/// Why speech could not be rendered.
public enum SpeechError: Error, CustomStringConvertible {
    case initialization(String)
    case voice(String, String)
    case synthesis(String)

    public var description: String {
        switch self {
        case .initialization(let reason): "espeak-ng did not start: \(reason)"
        case .voice(let voice, let reason): "espeak-ng has no voice \"\(voice)\": \(reason)"
        case .synthesis(let reason): "espeak-ng could not render the text: \(reason)"
        }
    }
}
