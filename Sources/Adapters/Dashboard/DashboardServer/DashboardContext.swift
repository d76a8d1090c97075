import Hummingbird
import NIOCore

/// Each request's context: the peer's address, which decides whether the pairing secret is needed.
public struct DashboardContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Commands and pairing are a few hundred bytes: anything larger is refused unread.
    public var maxUploadSize: Int { 4096 }
}
