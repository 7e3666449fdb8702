import Testing
@testable import TribeBoardDomain

/// The import key is text stores already hold: its form must not change, and an external id
/// comes back out of it whole, whatever it contains.
@Suite struct ImportKeyTests {
    @Test func storesWrittenBeforeReadTheSame() {
        #expect(ImportKey.external("2026-002") == "ext:2026-002")
        #expect(ImportKey.content(["Dupont", "Marie Curie", "", ""]) == "row:Dupont\u{1F}Marie Curie\u{1F}\u{1F}")
    }

    @Test func anExternalIdComesBackWholeAndContentKeysHaveNone() {
        for id in ["2026-002", "ext:nested", "row:x", " spaced ", "Réf. 12"] {
            #expect(ImportKey.externalId(in: ImportKey.external(id)) == id)
        }
        #expect(ImportKey.externalId(in: ImportKey.content(["ext:Dupont"])) == nil)
        #expect(ImportKey.externalId(in: nil) == nil)
    }
}
