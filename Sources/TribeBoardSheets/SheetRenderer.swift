import CCairoPango
import Foundation
import TribeBoardDomain

/// Faces chosen for what they must show. Family names: Noto Sans, with fontconfig falling back to
/// the Noto face of each script (Arabic, Hebrew, Devanagari, Thai) and to Noto Sans CJK. Codes: DejaVu Sans Mono Bold, whose 0 is slashed and whose 1, I, 8, B, 5, S, 2 and Z
/// all differ, so a code typed from paper is typed right even with the app's older codes.
enum SheetFonts {
    /// Listed rather than left to fontconfig, which would take DejaVu Sans for Arabic and Hebrew.
    static let scripts = "Noto Sans, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans Thai"
    static let code = "DejaVu Sans Mono Bold"

    /// The faces for text in `language`: Han characters are drawn differently in Chinese,
    /// Japanese and Korean, so the CJK face is the language's (Simplified Chinese unless the
    /// language says otherwise).
    static func text(_ language: CJKLanguage) -> String { "\(scripts), Noto Sans CJK \(language.face)" }

    enum CJKLanguage: Equatable {
        case simplifiedChinese, traditionalChinese, japanese, korean

        var face: String {
            switch self {
            case .simplifiedChinese: return "SC"
            case .traditionalChinese: return "TC"
            case .japanese: return "JP"
            case .korean: return "KR"
            }
        }

        /// The BCP 47 tag pango is given with the face.
        var tag: String {
            switch self {
            case .simplifiedChinese: return "zh-cn"
            case .traditionalChinese: return "zh-tw"
            case .japanese: return "ja"
            case .korean: return "ko"
            }
        }

        /// A template's `language`, when it is one of the four.
        init?(tag: String) {
            let parts = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
            switch parts.first {
            case "ja": self = .japanese
            case "ko": self = .korean
            case "zh":
                let traditional = parts.dropFirst().contains { ["hant", "tw", "hk", "mo"].contains($0) }
                self = traditional ? .traditionalChinese : .simplifiedChinese
            default: return nil
            }
        }

        /// A name's own script when it tells (kana: Japanese, Hangul: Korean); Han alone is the
        /// template's CJK language, or Simplified Chinese.
        init(name: String, template: CJKLanguage?) {
            for scalar in name.unicodeScalars {
                switch scalar.value {
                case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: self = .japanese; return
                case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: self = .korean; return
                default: continue
                }
            }
            self = template ?? .simplifiedChinese
        }
    }
}

/// Draws invitations onto pages of a PDF (and one page onto a `--preview` PNG), emitting each
/// page as soon as it is full. Cards are held a page at a time: each is measured first, and a
/// page whose cards do not all fit 2 × 4 has 3 or 2 rows of taller cards. Every text is fitted
/// (`TextBox`): when one does not fit even then and cuts are not allowed, drawing stops, the
/// PDF's temporary file is dropped, the rest is only measured (to name every card concerned),
/// the preview shows the first page with such a card, marked, and `finish` throws.
package final class SheetRenderer {
    package let layout: SheetLayout
    package let paper: Paper
    private let template: SheetTemplate
    private let geometry: SheetGeometry
    private let outputPath: String?
    private let allowCut: Bool
    private let logo: Logo?
    /// A PDF surface with no output: the layouts' metrics are the PDF's whatever they are shown on.
    private let measuringSurface: OpaquePointer
    private let measuring: OpaquePointer
    private let boxes: Boxes
    private let templateCJK: SheetFonts.CJKLanguage?
    private var output: PDFOutput?
    private var preview: PreviewOutput?
    /// The preview shows a card that does not fit: it is kept (and written even on a refusal).
    private var previewShowsCut = false
    /// The cards of the page being made, and the first of `SheetGeometry.cardShapes` each fits in (nil: none).
    private var pending: [(invitation: Invitation, shape: Int?)] = []
    package private(set) var invitations = 0
    package private(set) var pages = 0
    package private(set) var cuts = TextCuts()
    /// Invitations whose title or wording was set smaller than its size to fit.
    package private(set) var shrunk = 0
    /// Pages of cards set in fewer than 4 rows (taller cards) for their wording to fit.
    package private(set) var tallerPages = 0
    /// The template's placeholders that are not fields: a manifest's columns.
    package var templateColumns: [SheetTemplate.Column] { template.columns }

    private struct Boxes {
        let heading, name, label, code, small, body: TextBox
    }

    /// The smallest type text is set in, in points: 7 pt on cards (a newspaper's small print,
    /// read at arm's length by most readers), 9 pt for a letter's wording and 14 pt for its title.
    /// Family names are not shrunk: all of one run are set at one size (14 pt on cards, 30 pt on
    /// letters) and wrap at spaces and hyphens.
    package static let cardFloor = 7.0
    package static let letterFloor = 9.0
    package static let titleFloor = 14.0
    static let cardNamePoints = 14.0

    package init(outputPath: String?, preview: String? = nil, layout: SheetLayout, paper: Paper, template: SheetTemplate,
                 allowCut: Bool = false) throws(SheetError) {
        self.outputPath = outputPath
        self.layout = layout
        self.paper = paper
        self.template = template
        self.allowCut = allowCut
        geometry = SheetGeometry(paper: paper, layout: layout)
        templateCJK = SheetFonts.CJKLanguage(tag: template.language)
        do throws(SheetTemplateError) {
            logo = try template.logoPath.map { (path) throws(SheetTemplateError) in try Logo(path: path) }
        } catch {
            throw .template(error)
        }
        let (width, height) = paper.size
        // A NULL write function is cairo's documented no-op stream.
        guard let surface = cairo_pdf_surface_create_for_stream(nil, nil, width, height) else { throw .cairo("no measuring surface") }
        measuringSurface = surface
        measuring = cairo_create(surface)
        boxes = Self.makeBoxes(measuring, layout: layout, language: template.language, cjk: templateCJK)
        // The preview's place is checked now: a wrong path fails before any drawing.
        self.preview = try preview.map { (path) throws(SheetError) in try PreviewOutput(path: path, paper: paper) }
    }

    deinit {
        cairo_destroy(measuring)
        cairo_surface_destroy(measuringSurface)
    }

    /// A cut not allowed was met: nothing more is drawn in the PDF, nothing will be written.
    private var refusing: Bool { !allowCut && !cuts.isEmpty }

    /// Where a page is drawn: the PDF (created with the first invitation: no family, no file)
    /// unless refusing, and the preview for the first page, or for the first page with a card
    /// that does not fit (cleared for it).
    private func targets(pageHasCut: Bool) throws(SheetError) -> [OpaquePointer] {
        var targets: [OpaquePointer] = []
        if !refusing && !(pageHasCut && !allowCut), let outputPath {
            if output == nil { output = try PDFOutput(path: outputPath, paper: paper) }
            if let output { targets.append(output.context) }
        }
        if let preview, !previewShowsCut {
            if pageHasCut {
                preview.clear()
                previewShowsCut = true
                targets.append(preview.context)
            } else if pages == 0 {
                targets.append(preview.context)
            }
        }
        return targets
    }

    package func add(_ invitation: Invitation) throws(SheetError) {
        try Self.validate(invitation)
        invitations += 1
        guard layout == .cards else {
            // The first letter shape it fits whole (the last, cut, when none).
            let shapes = SheetGeometry.letterShapes
            let fitting = shapes.firstIndex { shape in !drawLetter(invitation, shape: shape, []).contains { $0.value.cut } }
            try drawPage([invitation], letter: shapes[fitting ?? shapes.count - 1], pageHasCut: fitting == nil)
            return
        }
        let shape = SheetGeometry.cardShapes.firstIndex { shape in
            !drawCard(invitation, in: geometry.card(0, rows: shape.rows), qrShare: shape.qrShare, []).contains { $0.value.cut }
        }
        pending.append((invitation, shape))
        if pending.count >= geometry.perPage { try flushPage() }
    }

    /// Draws the next page of held cards: as many as fit on a page of the first shape every one
    /// of them fits in (a card that fits in none is drawn in the last, cut).
    private func flushPage() throws(SheetError) {
        guard let head = pending.first else { return }
        let shapes = SheetGeometry.cardShapes, last = shapes.count - 1
        var shape = head.shape ?? last
        var count = 1
        while count < pending.count {
            let wider = max(shape, pending[count].shape ?? last)
            guard SheetGeometry.cardColumns * shapes[wider].rows > count else { break }
            shape = wider
            count += 1
        }
        let cards = pending.prefix(count)
        pending.removeFirst(count)
        if shapes[shape].rows < shapes[0].rows { tallerPages += 1 }
        try drawPage(cards.map(\.invitation), shape: shapes[shape], pageHasCut: cards.contains { $0.shape == nil })
    }

    private func drawPage(_ page: [Invitation], shape: SheetGeometry.CardShape = .init(rows: 1, qrShare: 0),
                          letter: SheetGeometry.LetterShape = SheetGeometry.letterShapes[0], pageHasCut: Bool) throws(SheetError) {
        let rows = shape.rows
        let targets = try targets(pageHasCut: pageHasCut)
        if layout == .cards { for target in targets { drawCutMarks(target, rows: rows, count: page.count) } }
        for (slot, invitation) in page.enumerated() {
            let frame = layout == .cards ? geometry.card(slot, rows: rows) : geometry.letterBody
            // Text is fitted by its logical size, but marks stacked on one letter (a name of
            // combining marks passes the app's 50-character rule) ink far above and below it: the
            // clip keeps every card's drawing inside its own card, clear of the line it is cut on.
            let inset = layout == .cards ? 4.0 : 0
            for target in targets {
                cairo_save(target)
                cairo_rectangle(target, frame.x + inset, frame.y + inset, frame.width - 2 * inset, frame.height - 2 * inset)
                cairo_clip(target)
            }
            let fits = layout == .cards ? drawCard(invitation, in: frame, qrShare: shape.qrShare, targets)
                : drawLetter(invitation, shape: letter, targets)
            for target in targets { cairo_restore(target) }
            for target in targets { try QRDrawing.draw(invitation.code, in: target, x: qrFrame.x, y: qrFrame.y, size: qrFrame.size) }
            let cut = fits.filter { $0.value.cut }.map(\.key).sorted()
            if !cut.isEmpty {
                cuts.record(familyId: invitation.familyId.rawValue, familyName: invitation.familyName, fields: cut,
                            cause: cause(of: invitation, shape: shape, letter: letter))
                if let preview, previewShowsCut, targets.contains(preview.context) { markCut(frame, fields: cut, on: preview.context) }
            }
            let smaller = letter != SheetGeometry.letterShapes[0] || fits.contains { ["wording", "title"].contains($0.key) && $0.value.scale < 1 }
            if smaller { shrunk += 1 }
        }
        if refusing, let output {
            // Its temporary file goes now: the rest of the run only measures.
            self.output = nil
            output.abandon()
        }
        if !refusing { try output?.showPage() }
        pages += 1
    }

    /// Whether the template's own text is too long (it does not fit with one-letter names
    /// either) or this family's data is.
    private func cause(of invitation: Invitation, shape: SheetGeometry.CardShape, letter: SheetGeometry.LetterShape) -> TextCuts.Cause {
        let short = Invitation(familyId: invitation.familyId, familyName: "A", code: invitation.code, adminName: invitation.adminName == nil ? nil : "A",
                               externalId: invitation.externalId.map { _ in "A" }, columns: invitation.columns.mapValues { _ in "A" })
        let fits = layout == .cards ? drawCard(short, in: geometry.card(0, rows: shape.rows), qrShare: shape.qrShare, [])
            : drawLetter(short, shape: letter, [])
        return fits.contains { $0.value.cut } ? .template : .data
    }

    /// A red frame and the fields that do not fit, on the preview only.
    private func markCut(_ frame: PageRect, fields: [String], on target: OpaquePointer) {
        cairo_save(target)
        cairo_set_source_rgb(target, 0.85, 0, 0)
        cairo_set_line_width(target, 2)
        cairo_rectangle(target, frame.x + 2, frame.y + 2, frame.width - 4, frame.height - 4)
        cairo_stroke(target)
        cairo_restore(target)
        boxes.heading.line("does not fit: " + fields.joined(separator: ", "), x: frame.x + 6, y: frame.y + frame.height - 16,
                           width: frame.width - 12, minimumScale: 0.5, alignment: .natural, red: true, on: [target])
    }

    /// Ends the last page, then names the files. Before this, nothing is at the output paths.
    package func finish() throws(SheetError) {
        guard invitations > 0 else { throw .nothingSelected }
        while !pending.isEmpty { try flushPage() }
        if refusing {
            // The preview shows the cards that do not fit, marked: what to look at.
            if previewShowsCut { try preview?.commit() }
            throw .textDoesNotFit(cuts, layout: layout, preview: previewShowsCut ? preview?.path : nil)
        }
        try output?.commit()
        try preview?.commit()
    }

    private var qrFrame = (x: 0.0, y: 0.0, size: 0.0)

    /// Exactly the app's wire format: a code that needs trimming or upper-casing to pass is one
    /// the app's scanner would read differently from what the store holds.
    package static func validate(_ invitation: Invitation) throws(SheetError) {
        let reason: String
        do {
            if try FamilyCode(validating: invitation.code).value == invitation.code { return }
            reason = "it is not written as the app writes it (upper case, no spaces)"
        } catch {
            reason = error.localizedDescription
        }
        throw .invalidCode(familyId: invitation.familyId.rawValue, familyName: invitation.familyName, reason: reason)
    }

    private static func makeBoxes(_ context: OpaquePointer, layout: SheetLayout, language: String,
                                  cjk: SheetFonts.CJKLanguage?) -> Boxes {
        let text = SheetFonts.text(cjk ?? .simplifiedChinese)
        func box(_ font: String, _ language: String? = nil) -> TextBox { TextBox(measuring: context, font: font, language: language) }
        if layout == .cards {
            return Boxes(heading: box("\(text) 8", language), name: box("\(text) Bold \(cardNamePoints)"),
                         label: box("\(text) 9", language), code: box("\(SheetFonts.code) 24"),
                         small: box("\(text) 9", language), body: box("\(text) 7.5", language))
        }
        return Boxes(heading: box("\(text) Bold 22", language), name: box("\(text) Bold 30"),
                     label: box("\(text) 13", language), code: box("\(SheetFonts.code) 48"),
                     small: box("\(text) 14", language), body: box("\(text) 13", language))
    }

    /// The name box set for `name`'s script (its CJK face by its kana or Hangul, else the
    /// template's) at `points`.
    private func nameBox(for name: String, points: Double = cardNamePoints) -> TextBox {
        let cjk = SheetFonts.CJKLanguage(name: name, template: templateCJK)
        boxes.name.use(font: "\(SheetFonts.text(cjk)) Bold \(points)", language: cjk.tag)
        return boxes.name
    }

    private func values(_ invitation: Invitation) -> [TemplateField: String] {
        [.familyName: invitation.familyName, .adminName: invitation.adminName ?? "", .code: invitation.code,
         .externalId: invitation.externalId ?? "", .organisation: template.organisation]
    }

    /// "Administrator: Ann", or the label itself when it places `{admin_name}`; French sets a
    /// no-break space before the colon ("Administrateur : Anne"), as its typography requires.
    private func adminLine(_ invitation: Invitation) -> String? {
        guard let name = invitation.adminName, !name.isEmpty else { return nil }
        if template.adminLabel.contains("{admin_name}") { return template.adminLabel.replacingOccurrences(of: "{admin_name}", with: name) }
        let french = template.language.lowercased() == "fr" || template.language.lowercased().hasPrefix("fr-")
        return "\(template.adminLabel)\(french ? "\u{00A0}:" : ":") \(name)"
    }

    private func drawCutMarks(_ context: OpaquePointer, rows: Int, count: Int) {
        cairo_set_source_rgb(context, 0.4, 0.4, 0.4)
        cairo_set_line_width(context, 0.5)
        for mark in geometry.cutMarks(rows: rows, count: count) {
            cairo_move_to(context, mark.x0, mark.y0)
            cairo_line_to(context, mark.x1, mark.y1)
        }
        cairo_stroke(context)
    }

    /// Draws one card; how each of its texts fitted, by field.
    private func drawCard(_ invitation: Invitation, in card: PageRect, qrShare: Double, _ targets: [OpaquePointer]) -> [String: TextBox.Fit] {
        var fits: [String: TextBox.Fit] = [:]
        let pad = 10.0, inner = card.width - 2 * pad, floor = Self.cardFloor
        var y = card.y + pad
        if !template.organisation.isEmpty {
            let fit = boxes.heading.line(template.organisation, x: card.x + pad, y: y, width: inner, minimumScale: floor / 8, gray: 0.35, on: targets)
            fits["organisation"] = fit
            y += fit.height
        }
        // Every name of a run at one size, wrapped at spaces and hyphens (within a word only
        // when it is wider than the card), over up to 40% of the card's height.
        let name = nameBox(for: invitation.familyName).block(invitation.familyName,
                                                             regions: [PageRect(x: card.x + pad, y: y, width: inner, height: card.height * 0.4)],
                                                             minimumScale: 1, alignment: .center, on: targets)
        fits["family_name"] = name
        y += name.height + 4
        let qrSize = min(card.y + card.height - pad - y, card.width * qrShare)
        qrFrame = (card.x + pad, y, qrSize)
        let column = card.x + pad + qrSize + 6
        let columnWidth = card.x + card.width - pad - column
        let label = boxes.label.line(template.codeLabel, x: column, y: y + 4, width: columnWidth, minimumScale: floor / 9,
                                     alignment: .natural, gray: 0.35, on: targets)
        fits["code_label"] = label
        y += label.height + 8
        let code = boxes.code.line(invitation.code, x: column, y: y, width: columnWidth, minimumScale: 0.3, alignment: .natural, on: targets)
        fits["code"] = code
        y += code.height + 2
        let qrBottom = qrFrame.y + qrSize + 3
        if let admin = adminLine(invitation) {
            // Wrapped in the column beside the QR code, as the name is.
            let fit = boxes.small.block(admin, regions: [PageRect(x: column, y: y, width: columnWidth, height: max(qrBottom - y, 0))],
                                        minimumScale: floor / 9, on: targets)
            fits["admin_name"] = fit
            y += fit.height + 3
        }
        // The wording is in the column beside the QR code down to the card's foot when it fits
        // there at full size; if not, it fills the column, then the card's width below the code.
        let bottom = card.y + card.height - pad
        let regions = [PageRect(x: column, y: y, width: columnWidth, height: qrBottom - y),
                       PageRect(x: card.x + pad, y: qrBottom, width: inner, height: bottom - qrBottom)]
        fits["wording"] = boxes.body.block(template.body.filled(values(invitation), columns: invitation.columns), first: [PageRect(x: column, y: y, width: columnWidth, height: bottom - y)],
                                           regions: regions, minimumScale: floor / 7.5, on: targets)
        return fits
    }

    /// Draws one letter in `shape`; how each of its texts fitted, by field.
    private func drawLetter(_ invitation: Invitation, shape: SheetGeometry.LetterShape, _ targets: [OpaquePointer]) -> [String: TextBox.Fit] {
        var fits: [String: TextBox.Fit] = [:]
        let page = geometry.letterBody
        var y = page.y
        var textX = page.x
        if let logo {
            for target in targets { logo.draw(in: target, x: page.x, y: page.y + (Logo.box.height - logo.height) / 2) }
            textX += logo.width + 12
        }
        if !template.organisation.isEmpty {
            fits["organisation"] = boxes.label.line(template.organisation, x: textX, y: page.y + 14, width: page.x + page.width - textX,
                                                    minimumScale: 0.6, alignment: .natural, gray: 0.35, on: targets)
        }
        y += 64
        let fields = values(invitation)
        // Up to four lines of 14 pt, three of 22.
        let title = boxes.heading.block(template.title.filled(fields, columns: invitation.columns), regions: [PageRect(x: page.x, y: y, width: page.width, height: 80)],
                                        minimumScale: Self.titleFloor / 22, on: targets)
        fits["title"] = title
        y += title.height + 12
        let name = nameBox(for: invitation.familyName, points: shape.namePoints).block(invitation.familyName,
                                                                                      regions: [PageRect(x: page.x, y: y, width: page.width, height: 200)],
                                                             minimumScale: 1, alignment: .center, on: targets)
        fits["family_name"] = name
        y += name.height + 12
        let qrSize = shape.qrSize
        qrFrame = (page.x + (page.width - qrSize) / 2, y, qrSize)
        y += qrSize + 8
        let label = boxes.label.line(template.codeLabel, x: page.x, y: y, width: page.width, minimumScale: 0.6, gray: 0.35, on: targets)
        fits["code_label"] = label
        y += label.height
        let code = boxes.code.line(invitation.code, x: page.x, y: y, width: page.width, minimumScale: 0.3, on: targets)
        fits["code"] = code
        y += code.height + 6
        if let admin = adminLine(invitation) {
            let fit = boxes.small.block(admin, regions: [PageRect(x: page.x, y: y, width: page.width, height: 60)],
                                        minimumScale: 0.5, alignment: .center, on: targets)
            fits["admin_name"] = fit
            y += fit.height + 6
        }
        y += 12
        fits["wording"] = boxes.body.block(template.body.filled(fields, columns: invitation.columns), regions: [PageRect(x: page.x, y: y, width: page.width, height: page.y + page.height - y)],
                                           minimumScale: Self.letterFloor / 13, on: targets)
        return fits
    }
}
