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
/// home printers leave up to about a quarter inch unprinted at each edge. Cards come 2 × 4 to a
/// page; a page whose wording does not fit that way has 3 or 2 rows of taller cards.
struct SheetGeometry {
    static let cardColumns = 2
    /// How a page of cards may be set, from the most cards a page: 4 rows with the QR code at
    /// 0.42 of the card's width, then at 0.32 (1.15 in on A4: it still scans at 100 dpi), then 3
    /// rows, then 2.
    struct CardShape: Equatable {
        let rows: Int
        let qrShare: Double
    }

    static let cardShapes = [CardShape(rows: 4, qrShare: 0.42), CardShape(rows: 4, qrShare: 0.32),
                             CardShape(rows: 3, qrShare: 0.42), CardShape(rows: 2, qrShare: 0.42)]
    /// How a letter may be set, from the largest: the family's name at 30 pt over a QR code of
    /// 200 points (2.8 in), then a 150-point code, then the name at 22 pt. A letter takes the
    /// first its wording fits in whole (a 50-character name without spaces takes four lines at 30
    /// pt).
    struct LetterShape: Equatable {
        let namePoints: Double
        let qrSize: Double
    }

    static let letterShapes = [
        LetterShape(namePoints: 30, qrSize: 200), LetterShape(namePoints: 30, qrSize: 150),
        LetterShape(namePoints: 22, qrSize: 150), LetterShape(namePoints: 22, qrSize: 120)
    ]
    static let cardMargin = 36.0
    static let letterMargin = 54.0

    let paper: Paper
    let layout: SheetLayout

    /// The most invitations a page holds.
    var perPage: Int {
        layout == .cards ? Self.cardColumns * (Self.cardShapes.first?.rows ?? 4) : 1
    }

    /// The card at `slot` on a page of `rows` rows, row by row.
    func card(_ slot: Int, rows: Int = 4) -> PageRect {
        let (width, height) = paper.size
        let cardWidth = (width - 2 * Self.cardMargin) / Double(Self.cardColumns)
        let cardHeight = (height - 2 * Self.cardMargin) / Double(max(rows, 1))
        return PageRect(x: Self.cardMargin + Double(slot % Self.cardColumns) * cardWidth,
                        y: Self.cardMargin + Double(slot / Self.cardColumns) * cardHeight,
                        width: cardWidth, height: cardHeight)
    }

    var letterBody: PageRect {
        let (width, height) = paper.size
        return PageRect(
            x: Self.letterMargin, y: Self.letterMargin,
            width: width - 2 * Self.letterMargin, height: height - 2 * Self.letterMargin)
    }

    /// Cut marks: short strokes in the margin on the line of every edge of the `count` cards of a
    /// page of `rows` rows, kept clear of the cards and of the unprintable strip at the paper's
    /// edge; none beside a row or column no card is in.
    func cutMarks(rows: Int, count: Int) -> [(x0: Double, y0: Double, x1: Double, y1: Double)] {
        let (width, height) = paper.size
        let near = 12.0, far = Self.cardMargin - 6
        let first = card(0, rows: rows)
        let usedRows = (count + Self.cardColumns - 1) / Self.cardColumns
        let usedColumns = min(count, Self.cardColumns)
        var marks: [(Double, Double, Double, Double)] = []
        guard count > 0 else { return marks }
        for column in 0...usedColumns {
            let x = Self.cardMargin + Double(column) * first.width
            marks.append((x, near, x, far))
            let bottom = Self.cardMargin + Double(usedRows) * first.height
            marks.append(
                (x, min(bottom + 6, height - far), x, min(bottom + far - 6, height - near)))
        }
        for row in 0...usedRows {
            let y = Self.cardMargin + Double(row) * first.height
            marks.append((near, y, far, y))
            // The right margin's marks only where the row has a second card.
            let rightAbove = row > 0 && 2 * (row - 1) + 1 < count, rightBelow = 2 * row + 1 < count
            if rightAbove || rightBelow { marks.append((width - far, y, width - near, y)) }
        }
        return marks
    }
}
