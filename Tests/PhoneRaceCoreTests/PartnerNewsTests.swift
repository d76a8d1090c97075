import PhoneRaceCore
import Testing

@Suite struct PartnerNewsTests {
    @Test(arguments: [
        (PartnerNews.Source.message, "paused", PartnerNews?.some(.paused)),
        (.message, "resumed", .resumed), (.message, "split", .split), (.event, "finished", .finished),
        (.event, "abandoned", .abandoned),
        // The relay's events of the partner's pause are not theirs; their own finish message is the
        // final figures, told through the relay's event.
        (.event, "paused", nil), (.message, "finished", nil), (.message, "snapshot", nil),
        (.message, "started", nil), (.event, "started", nil), (.event, "result", nil), (.message, "hello", nil),
        (.event, "no-such-kind", nil),
    ])
    func newsOfEachKind(source: PartnerNews.Source, kind: String, news: PartnerNews?) {
        #expect(PartnerNews(source: source, kind: kind) == news)
        #expect(PartnerNews(source: source, kind: kind, runner: "bob", partner: "bob") == news)
    }

    @Test func onlyThePartnersOwnItemsAreNews() {
        #expect(PartnerNews(source: .message, kind: "paused", runner: "ann", partner: "bob") == nil)
        #expect(PartnerNews(source: .event, kind: "finished", runner: nil, partner: "bob") == nil)
    }
}
