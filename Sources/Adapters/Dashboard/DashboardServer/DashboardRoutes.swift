import DashboardCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import PhoneServer
import ProcessClock
import Synchronization

/// The dashboard's router: the page (one document for every view), its assets, and the JSON API
/// that `openapi.yaml` documents.
struct DashboardRoutes: Sendable {
    let inbox: Inbox
    /// The phone's wall clock, shared with its other shells.
    let clock: WallClock
    let wearables: [String]
    let limits: LinkLimits
    let commands: CommandRoutes
    let history: HistoryRoutes
    let race: RaceRoutes
    let raceHistory: RaceHistoryRoutes
    let courses: CourseRoutes
    let pairing: PairingFile
    let tls: Bool
    let maxStreams: Int
    let streams: StreamCount
    let closing: ShutdownFlag
    let logger: Logger

    static func unknownWearable(_ name: String) -> Response {
        JSONText.error(.notFound, "unknown_wearable", "no wearable named \"\(name.prefix(64))\" is configured")
    }

    func add(to router: Router<DashboardContext>) {
        for path in ["/", "/history", "/pair"] {
            router.get(RouterPath(path)) { request, _ in Assets.response(Assets.page, request) }
        }
        router.get("/w/:name") { request, _ in Assets.response(Assets.page, request) }
        router.get("/app.js") { request, _ in Assets.response(Assets.script, request) }
        router.get("/app.css") { request, _ in Assets.response(Assets.style, request) }
        router.get("/api/openapi.yaml") { request, _ in Assets.response(Assets.openAPI, request) }
        router.get("/api/health") { _, _ in
            try JSONText.response(Health(openStreams: streams.total))
        }
        router.get("/api/wearables") { _, _ in try list() }
        router.get("/api/wearables/:name") { _, context in
            try live(context.parameters.get("name") ?? "")
        }
        router.get("/api/wearables/:name/events") { request, context in
            try events(request, context.parameters.get("name") ?? "")
        }
        router.post("/api/wearables/:name/commands") { request, context in
            try await commands.post(request, wearable: context.parameters.get("name") ?? "")
        }
        router.get("/api/commands/:id") { _, context in
            try commands.state(CourseRoutes.decoded(context.parameters.get("id")))
        }
        router.get("/api/sessions") { _, _ in try history.list() }
        router.get("/api/sessions/:session/export/:format") { _, context in
            try await history.export(
                session: context.parameters.get("session") ?? "",
                format: context.parameters.get("format") ?? ""
            )
        }
        router.get("/api/wearables/:name/race") { _, context in
            try race.state(context.parameters.get("name") ?? "")
        }
        router.get("/api/race/runs") { _, _ in await race.runs() }
        router.post("/api/race/invites") { request, _ in await race.invite(request) }
        router.post("/api/race/runs/:run/accept") { _, context in
            await race.accept(context.parameters.get("run") ?? "")
        }
        router.get("/api/races") { _, _ in try raceHistory.list() }
        router.get("/api/races/:run/map.svg") { _, context in
            try raceHistory.svg(context.parameters.get("run") ?? "")
        }
        router.get("/api/courses") { _, _ in try courses.list() }
        router.post("/api/courses") { request, _ in try await courses.add(request) }
        router.post("/api/wearables/:name/courses/:course") { _, context in
            try await courses.send(
                wearable: context.parameters.get("name") ?? "",
                course: CourseRoutes.decoded(context.parameters.get("course"))
            )
        }
        router.delete("/api/wearables/:name/courses/:course") { _, context in
            try await courses.remove(
                wearable: context.parameters.get("name") ?? "",
                course: CourseRoutes.decoded(context.parameters.get("course"))
            )
        }
        router.post("/api/pair") { request, _ in try await pair(request) }
    }

    private func list() throws -> Response {
        let now = clock.now()
        let links = try inbox.link.records()
        let items = try wearables.map { name in
            let link = links.first { $0.wearable == name }
            let (strip, snapshot) = try LiveJSON.link(link, wearable: name, inbox: inbox, now: now, limits: limits)
            return WearableSummary(
                name: name,
                helloName: link?.helloName,
                link: strip,
                snapshot: snapshot.map { LiveJSON.snapshot($0, now: now) }
            )
        }
        return try JSONText.response(WearableList(wearables: items, serverTimeMs: Int64(now * 1000)))
    }

    private func live(_ name: String) throws -> Response {
        guard wearables.contains(name) else { return Self.unknownWearable(name) }
        let now = clock.now()
        let link = try inbox.link.record(wearable: name)
        let (strip, snapshot) = try LiveJSON.link(link, wearable: name, inbox: inbox, now: now, limits: limits)
        let newest = try link?.epoch.flatMap { try inbox.link.newestSession(wearable: name, epoch: $0) }
        return try JSONText.response(
            Live(
                name: name,
                helloName: link?.helloName,
                epoch: link?.epoch,
                link: strip,
                snapshot: snapshot.map { LiveJSON.snapshot($0, now: now) },
                session: newest.map { Live.Session(id: $0.session, startedSeq: $0.seq, ended: $0.ended) },
                serverTimeMs: Int64(now * 1000)
            )
        )
    }

    private func events(_ request: Request, _ name: String) throws -> Response {
        guard wearables.contains(name) else { return Self.unknownWearable(name) }
        let resume: Int?
        switch ServerSentEvent.resumePoint(
            request.headers[.init("Last-Event-ID")!] ?? request.uri.queryParameters["last_event_id"].map(String.init)
        ) {
        case .success(let seq): resume = seq
        case .failure(let error): return JSONText.error(.badRequest, "bad_last_event_id", error.description)
        }
        guard streams.open(name, limit: maxStreams) else {
            logger.warning("refused a dashboard stream: too many open", metadata: ["limit": "\(maxStreams)"])
            return JSONText.error(
                .serviceUnavailable,
                "too_many_streams",
                "the dashboard serves at most \(maxStreams) open pages; close one and reload"
            )
        }
        let stream = EventStream(
            wearable: name,
            inbox: inbox,
            clock: clock,
            limits: limits,
            closing: closing,
            logger: logger
        )
        let streams = self.streams
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream", .cacheControl: "no-store",
                .init("X-Accel-Buffering")!: "no",
            ],
            body: .init { writer in
                defer { streams.close(name) }
                try await stream.run(resume: resume, writer: &writer)
                try await writer.finish(nil)
            }
        )
    }

    private func pair(_ request: Request) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 1024)
        } catch {
            return JSONText.error(.contentTooLarge, "body_too_large", "a pairing body is at most 1024 bytes")
        }
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            let secret = object["secret"] as? String, secret.utf8.count <= 128
        else {
            return JSONText.error(.badRequest, "malformed_pairing", "pairing is a JSON object with \"secret\"")
        }
        guard PairingFile.matches(secret, digests: try pairing.digests()) else {
            logger.warning("refused a wrong dashboard pairing secret")
            return JSONText.error(.unauthorized, "wrong_secret", "that is not a pairing secret of this phone")
        }
        var response = try JSONText.response(Paired())
        response.headers[.setCookie] =
            "wb_pair=\(secret); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000\(tls ? "; Secure" : "")"
        return response
    }
}

/// Open event streams, per wearable: the flood limit, and which wearables a page is watching
/// (their open session is backfilled as it runs, for the track and the heart-rate chart).
final class StreamCount: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func open(_ wearable: String, limit: Int) -> Bool {
        counts.withLock { counts in
            guard counts.values.reduce(0, +) < limit else { return false }
            counts[wearable, default: 0] += 1
            return true
        }
    }

    func close(_ wearable: String) {
        counts.withLock { counts in
            counts[wearable, default: 1] -= 1
            if counts[wearable] == 0 { counts[wearable] = nil }
        }
    }

    var watched: [String] { counts.withLock { Array($0.keys) } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}
