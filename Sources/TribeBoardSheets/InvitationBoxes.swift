/// A text of an invitation, by the template's name for it: what a cut or a missing character names.
package enum SheetField: String, Sendable, Encodable, CaseIterable, Comparable {
    case organisation, title, familyName = "family_name", codeLabel = "code_label", code,
        adminName = "admin_name", wording

    package static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
}

/// The boxes one invitation is measured and drawn with, one per text. A card is measured when it
/// comes (for its page's shape) and drawn once its page is full: with the same boxes, each text
/// is drawn from the layouts that measured it (`TextBox` keeps them), so the cards held for a
/// page each have boxes of their own.
final class InvitationBoxes {
    let organisation, title, name, codeLabel, code, admin, wording: TextBox
    private let templateCJK: SheetFonts.CJKLanguage?

    /// Cards: the organisation in 8 pt, names in 14 pt bold, the code's label and the admin in 9,
    /// the code in 24, the wording from 7.5. Letters: 13, 22 bold for the title, 30, 13, 48, 14,
    /// 13.
    init(
        measuring context: OpaquePointer, layout: SheetLayout, language: String,
        cjk: SheetFonts.CJKLanguage?
    ) {
        templateCJK = cjk
        let text = SheetFonts.text(cjk ?? .simplifiedChinese)
        func box(_ font: String, _ language: String? = nil) -> TextBox {
            TextBox(measuring: context, font: font, language: language)
        }
        let cards = layout == .cards
        organisation = box("\(text) \(cards ? 8 : 13)", language)
        title = box("\(text) Bold 22", language)
        name = box("\(text) Bold \(cards ? SheetRenderer.cardNamePoints : 30)")
        codeLabel = box("\(text) \(cards ? 9 : 13)", language)
        code = box("\(SheetFonts.code) \(cards ? 24 : 48)")
        admin = box("\(text) \(cards ? 9 : 14)", language)
        wording = box("\(text) \(cards ? 7.5 : 13)", language)
    }

    /// How many times their texts were handed to pango.
    var layoutsMade: Int {
        [organisation, title, name, codeLabel, code, admin, wording].reduce(0) {
            $0 + $1.layoutsMade
        }
    }

    /// The name box set for `name`'s script (its CJK face by its kana or Hangul, else the
    /// template's) at `points`.
    func nameBox(for name: String, points: Double) -> TextBox {
        let cjk = SheetFonts.CJKLanguage(name: name, template: templateCJK)
        self.name.use(font: "\(SheetFonts.text(cjk)) Bold \(points)", language: cjk.tag)
        return self.name
    }
}

/// How one invitation came out: each text's fit, and where its QR code goes.
struct DrawnInvitation {
    var fits: [SheetField: TextBox.Fit] = [:]
    var qr = PageRect(x: 0, y: 0, width: 0, height: 0)

    /// The texts that do not fit, in order.
    var cut: [SheetField] { fits.filter { $0.value.cut }.map(\.key).sorted() }
}
