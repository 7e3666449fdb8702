import Foundation
import Testing
import TribeBoardDomain
@testable import TribeBoardSheets
import TribeBoardTestSupport

/// The renderer in-process: what a run costs in pango layouts, the part of printing that grows
/// with the cards (10,000 cards in under 10 s: BENCHMARKS.md has the times).
@Suite struct SheetRendererTests {
    static func invitation(_ index: Int) -> Invitation {
        Invitation(familyId: FamilyID(rawValue: "F\(index)"), familyName: "Famille Lefèvre \(index)", code: "KQXM\(10 + index)",
                   adminName: "Admin \(index)", externalId: nil)
    }

    /// A card is measured when it comes (for its page's shape) and drawn once its page is full:
    /// it is drawn from the layouts that measured it, not laid out again, and the texts every
    /// card shares (the organisation, the code's label) are laid out once per set of boxes.
    @Test func eachCardsTextsAreLaidOutOnceThoughMeasuredThenDrawn() throws {
        let directory = try TemporaryDirectory("sheets-renderer-layouts")
        let pdf = directory.file("c.pdf")
        let renderer = try SheetRenderer(outputPath: pdf, layout: .cards, paper: .a4, template: SheetTemplate.builtIn())
        let cards = 16
        for index in 1...cards { try renderer.add(Self.invitation(index)) }
        try renderer.finish()
        #expect(renderer.pages == 2 && renderer.cuts.isEmpty && renderer.shrunk == 0)
        // Each card's name, code, admin and wording once; the organisation and the label once
        // for each of the page's eight sets of boxes. Laid out again when drawn, it was 192.
        #expect(renderer.textLayouts == cards * 4 + 8 * 2, "\(renderer.textLayouts) layouts for \(cards) cards")
        // Drawn from those layouts: every card's name and code are on its page.
        let text = try PDFReader.text(pdf)
        for index in 1...cards {
            #expect(text.contains("Famille Lefèvre \(index)") && text.contains("KQXM\(10 + index)"), "card \(index)")
        }
        #expect(try PDFReader.qrCodes(pdf).sorted() == (1...cards).map { "KQXM\(10 + $0)" }.sorted())
    }
}
