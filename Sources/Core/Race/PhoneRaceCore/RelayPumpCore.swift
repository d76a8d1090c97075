import Foundation
import RelayContract

/// The relay pump's schedule and decisions on one connection to the relay, pure, as `PhoneCore` is
/// the link's: what the relay listed, the races the phone holds and the time go in; what to do comes
/// out. A round lists the runs (after the relay's sweep), holds those with a start, decides the
/// countdown orders, pushes what is queued for every race held and pulls what the relay decided for
/// those that ended lately; a race under way is then followed twice a second (pull, push, orders),
/// listed again every five seconds until the relay says it is over; with none, the next round comes
/// two seconds later. `RelayPump` reads the clock once per input and carries out the actions.
public struct RelayPumpCore: Sendable {
    /// A race under way is pulled, pushed and ordered this often (s): the relay notifies no one.
    public static let followEvery = 0.5
    /// The runs are listed again this often while a race is followed (s).
    public static let listEvery = 5.0
    /// With no race under way, the next round comes this long after the last (s).
    public static let idleEvery = 2.0
    /// A route is shared, or the partner's looked for, at most this often per race (s).
    public static let routeEvery = 10.0
    /// The partner's route is looked for this long after a race's start (s): the relay's
    /// `limits.route_window` after its end, by default.
    public static let routeWindow = 8.0 * 86_400

    public enum Input: Sendable, Equatable {
        /// The relay listed these runs, after its sweep.
        case listed([RelayRun])
        /// The races the phone holds, with their countdown orders, as read from its store just now.
        case held([PhoneRace])
        /// The time to wake came.
        case tick
    }

    public enum Action: Sendable, Equatable {
        /// Ask the relay to sweep, list the runs, and hand them back as `.listed`.
        case list
        /// Hold (or update) this run in the phone's race store: it has an agreed start.
        case hold(RelayRun)
        /// Read the races the phone holds and hand them back as `.held`.
        case readHeld
        /// A countdown order to carry out.
        case order(RaceOrders.Action)
        /// Send what the inbox queued for this race, in order.
        case push(run: String)
        /// Read the partner's newest snapshot, their messages and the relay's events past the marks.
        case pull(run: String)
        /// Build this runner's route of a race that is over from its session's record and share it.
        case shareRoute(run: String)
        /// Read the partner's route of a race that is over, if they shared it.
        case fetchRoute(run: String)
        /// Tick again at this instant (the phone's wall clock, s).
        case wake(at: Double)
    }

    /// What the store's races are read for.
    private enum Reading: Sendable, Equatable {
        /// A round's: orders, then every race pushed, those that ended lately pulled.
        case round(settle: Set<String>)
        /// A followed race's step, after its pull and push: orders.
        case follow
    }

    /// The relay's newest listing.
    public private(set) var listed: [RelayRun] = []
    /// The race under way that is followed (its run id as the relay spells it).
    public private(set) var following: String?
    private var reading: Reading?
    private var nextList = -Double.infinity
    /// When each race's route work was last asked for.
    private var routeAsked: [String: Double] = [:]
    private var actions: [Action] = []

    public init() {}

    /// One input at `now`; what the pump must do, in order.
    public mutating func handle(_ input: Input, now: Double) -> [Action] {
        switch input {
        case .tick: tick(now)
        case .listed(let runs): listed(runs, now)
        case .held(let races): held(races, now)
        }
        var result: [Action] = []
        swap(&result, &actions)
        return result
    }

    private mutating func tick(_ now: Double) {
        guard let run = following else {
            actions.append(.list)
            return
        }
        if now >= nextList {
            actions.append(.list)
            return
        }
        reading = .follow
        actions += [.pull(run: run), .push(run: run), .readHeld]
    }

    private mutating func listed(_ runs: [RelayRun], _ now: Double) {
        listed = runs
        if let run = following {
            if runs.first(where: { $0.id.uuidString.lowercased() == run })?.state == .accepted {
                // Still under way: followed on, listed again in five seconds.
                nextList = now + Self.listEvery
                actions.append(.wake(at: now + Self.followEvery))
                return
            }
            following = nil
        }
        let round = RelayRound(listed: runs)
        actions += round.hold.map(Action.hold)
        reading = .round(settle: round.settle)
        actions.append(.readHeld)
    }

    private mutating func held(_ races: [PhoneRace], _ now: Double) {
        let states = RelayRound.states(listed)
        switch reading {
        case .round(let settle):
            actions += RaceOrders.decide(races, relay: states, now: now).map(Action.order)
            for race in races {
                actions.append(.push(run: race.run))
                if settle.contains(race.run) { actions.append(.pull(run: race.run)) }
            }
            routes(races, now)
            if let run = RelayRound(listed: listed).follow?.uuidString.lowercased() {
                following = run
                nextList = now + Self.listEvery
                actions.append(.wake(at: now))
            } else {
                actions.append(.wake(at: now + Self.idleEvery))
            }
        case .follow:
            guard let run = following, races.contains(where: { $0.run == run }) else {
                // The race left the store: a new round at once.
                following = nil
                actions.append(.wake(at: now))
                break
            }
            actions += RaceOrders.decide(races, relay: states, now: now).map(Action.order)
            actions.append(.wake(at: now + Self.followEvery))
        case nil:
            break
        }
        reading = nil
    }

    /// Once a race is over: this runner's route shared when its record is complete, the partner's
    /// looked for until it comes (within the window), each at most every `routeEvery`.
    private mutating func routes(_ races: [PhoneRace], _ now: Double) {
        for race in races where !race.state.isOpen && race.hasSession {
            let look = !race.partnerRouteHeld && now - race.startAt < Self.routeWindow
            guard race.ownRoute == .ready || look, now - (routeAsked[race.run] ?? -.infinity) >= Self.routeEvery else {
                continue
            }
            routeAsked[race.run] = now
            if race.ownRoute == .ready { actions.append(.shareRoute(run: race.run)) }
            if look { actions.append(.fetchRoute(run: race.run)) }
        }
    }
}
