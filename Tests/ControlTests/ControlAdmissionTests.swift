import Control
import Testing

/// Who holds the control socket and what reaches the journal: the rules alone, time and uids as inputs.
@Suite("Control socket admission and warnings")
struct ControlAdmissionTests {
    @Test func pastTheCapTheSameClientWaitsOutItsGraceThenItsOldestIdleGivesWay() {
        var admission = ControlAdmission(limits: .init(capacity: 3, grace: 1))
        for id in 1...3 { #expect(admission.arrive(id, client: 1000, at: Double(id) / 10) == .admit(displacing: nil)) }
        #expect(admission.arrive(4, client: 1000, at: 0.5) == .refuse)
        #expect(admission.arrive(5, client: 1000, at: 1.15) == .admit(displacing: 1))
        #expect(admission.count == 3 && admission.refused == 1 && admission.displaced == 1)
    }

    @Test func anotherClientIsLetInAtOnceInThePlaceOfTheFloodersOldestIdle() {
        var admission = ControlAdmission(limits: .init(capacity: 3, grace: 1))
        _ = admission.arrive(1, client: 0, at: 0)
        _ = admission.arrive(2, client: 1000, at: 0.01)
        _ = admission.arrive(3, client: 1000, at: 0.02)
        // Root's own older connection stays: the client holding the most gives way.
        #expect(admission.arrive(4, client: 0, at: 0.03) == .admit(displacing: 2))
        // Now each holds... root 2, the flooder 1: the flooder's newcomer displaces root's oldest
        // only once root's have been idle their grace.
        #expect(admission.arrive(5, client: 1000, at: 0.5) == .admit(displacing: 1))
    }

    @Test func aConnectionAnsweringARequestIsNeverDisplaced() {
        var admission = ControlAdmission(limits: .init(capacity: 2, grace: 0))
        _ = admission.arrive(1, client: 7, at: 0)
        _ = admission.arrive(2, client: 7, at: 0)
        admission.busy(1)
        admission.busy(2)
        #expect(admission.arrive(3, client: 9, at: 5) == .refuse)
        admission.idle(2, at: 6)
        #expect(admission.arrive(4, client: 9, at: 6) == .admit(displacing: 2))
        admission.left(1)
        #expect(admission.arrive(5, client: 9, at: 7) == .admit(displacing: nil))
    }

    @Test func oneWarningPerClientPerIntervalAndTheNextSaysHowManyWereHeldBack() {
        var budget = WarningBudget(interval: 60)
        #expect(budget.allow(1000, at: 0) == 0)
        for k in 1...500 { #expect(budget.allow(1000, at: Double(k) / 10) == nil) }
        #expect(budget.allow(0, at: 10) == 0, "another client has its own budget")
        #expect(budget.allow(1000, at: 60) == 500)
        #expect(budget.allow(1000, at: 61) == nil)
        #expect(budget.suppressed == 501)
    }
}
