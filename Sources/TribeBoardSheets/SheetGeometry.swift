/// A rectangle on the page in PostScript points (1/72 inch), origin at the top left.
struct PageRect: Sendable, Equatable {
    package var x, y, width, height: Double
}

package enum Paper: String, CaseIterable, Sendable, Encodable {
    case a4, letter

    /// Width and height in points: ISO 216 A4 (210 × 297 mm) and US Letter (8.5 × 11 in).
    package var size: (width: Double, height: Double) {
        switch self {
        case .a4: return (595.276, 841.890)
        case .letter: return (612, 792)
        }
    }
}

package enum SheetLayout: String, CaseIterable, Sendable, Encodable {
    case cards, letters
}

/// Where cards and letters go. Margins are half an inch for cards and three quarters for letters:
/// home printers leave up to about a quarter inch unprinted at each edge.
struct SheetGeometry {
    static let cardColumns = 2
    static let cardRows = 4
    static let cardMargin = 36.0
    static let letterMargin = 54.0

    let paper: Paper
    let layout: SheetLayout

    var perPage: Int { layout == .cards ? Self.cardColumns * Self.cardRows : 1 }

    /// The card at `slot` (0 ..< perPage) on its page, row by row.
    func card(_ slot: Int) -> PageRect {
        let (width, height) = paper.size
        let cardWidth = (width - 2 * Self.cardMargin) / Double(Self.cardColumns)
        let cardHeight = (height - 2 * Self.cardMargin) / Double(Self.cardRows)
        return PageRect(x: Self.cardMargin + Double(slot % Self.cardColumns) * cardWidth,
                        y: Self.cardMargin + Double(slot / Self.cardColumns) * cardHeight,
                        width: cardWidth, height: cardHeight)
    }

    var letterBody: PageRect {
        let (width, height) = paper.size
        return PageRect(x: Self.letterMargin, y: Self.letterMargin,
                        width: width - 2 * Self.letterMargin, height: height - 2 * Self.letterMargin)
    }

    /// Cut marks: short strokes in the margin on the line of every card edge, kept clear of the
    /// cards and of the unprintable strip at the paper's edge.
    var cutMarks: [(x0: Double, y0: Double, x1: Double, y1: Double)] {
        let (width, height) = paper.size
        let near = 12.0, far = Self.cardMargin - 6
        var marks: [(Double, Double, Double, Double)] = []
        for column in 0...Self.cardColumns {
            let x = Self.cardMargin + Double(column) * card(0).width
            marks.append((x, near, x, far))
            marks.append((x, height - far, x, height - near))
        }
        for row in 0...Self.cardRows {
            let y = Self.cardMargin + Double(row) * card(0).height
            marks.append((near, y, far, y))
            marks.append((width - far, y, width - near, y))
        }
        return marks
    }
}
