import PhoneServer
import RelayClient

extension RelayEndpoint {
    /// The runner's way into the relay as the phone's `[relay]` names it: one reading for the pump,
    /// the race commands and the dashboard.
    public static func runner(_ relay: PhoneConfig.Relay) -> RelayEndpoint {
        .runner(
            host: relay.host,
            port: relay.port,
            database: relay.database,
            name: relay.runner,
            caFile: relay.caFile,
            certificateFile: relay.certificateFile,
            keyFile: relay.keyFile
        )
    }
}
